// Arr source -> AST. Lexes with the generated ArrLexer, checks the token
// stream (bad characters, unterminated comments/strings, nesting depth),
// parses with the generated ArrParser (SLL first, full LL on failure) on a
// thread with a large stack, then builds our AST from the parse tree.
// ANTLR types never leave this file.
#include <algorithm>
#include "arrc/Frontend.h"

#include "arrc/AstWalk.h"

#include "ArrLexer.h"
#include "ArrParser.h"
#include "antlr4-runtime.h"

#include <pthread.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <functional>
#include <sstream>

namespace arrc {

using arrc_antlr::ArrLexer;
using arrc_antlr::ArrParser;
using antlr4::Token;

namespace {

// ---------------------------------------------------------------- helpers

// Runs fn on a thread with a large stack (deep but legal programs make the
// recursive-descent parser and the tree builder recurse deeply). Falls back to
// the calling thread if no such thread can be made.
void runWithLargeStack(const std::function<void()> &fn) {
  struct Box {
    const std::function<void()> *fn;
    std::exception_ptr error;
  } box{&fn, nullptr};
  auto trampoline = [](void *p) -> void * {
    auto *b = static_cast<Box *>(p);
    try {
      (*b->fn)();
    } catch (...) {
      b->error = std::current_exception();
    }
    return nullptr;
  };
  for (size_t stack : {size_t(512) << 20, size_t(64) << 20}) {
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0)
      break;
    pthread_t thread;
    bool started = pthread_attr_setstacksize(&attr, stack) == 0 &&
                   pthread_create(&thread, &attr, trampoline, &box) == 0;
    pthread_attr_destroy(&attr);
    if (started) {
      pthread_join(thread, nullptr);
      if (box.error)
        std::rethrow_exception(box.error);
      return;
    }
  }
  fn();
}

// Printable, clipped rendering of token text for messages.
std::string clip(const std::string &text, size_t limit = 24) {
  std::string out;
  for (size_t i = 0; i < text.size() && i < limit; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else if (c < 0x20 || c >= 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
    } else
      out += static_cast<char>(c);
  }
  if (text.size() > limit)
    out += "...";
  return out;
}

std::string describeToken(const Token *t) {
  if (!t || t->getType() == Token::EOF)
    return "end of file";
  std::string text = t->getText();
  switch (t->getType()) {
  case ArrLexer::ID: return "identifier '" + clip(text) + "'";
  case ArrLexer::INT:
  case ArrLexer::LONG:
  case ArrLexer::FLOAT: return "number '" + clip(text) + "'";
  case ArrLexer::STRING: return "string " + clip(text);
  default: return "'" + clip(text) + "'";
  }
}

// The display name of a token type ("')'", "identifier", ...).
std::string tokenTypeName(size_t type, const antlr4::dfa::Vocabulary &vocab) {
  switch (type) {
  case Token::EOF: return "end of file";
  case ArrLexer::ID: return "identifier";
  case ArrLexer::INT: return "integer";
  case ArrLexer::LONG: return "long integer";
  case ArrLexer::FLOAT: return "number";
  case ArrLexer::STRING: return "string";
  default: break;
  }
  std::string lit = vocab.getLiteralName(type);
  if (!lit.empty())
    return lit; // already quoted: 'if'
  return vocab.getSymbolicName(type);
}

bool isContinuationToken(size_t t) {
  // Tokens that may continue an already complete expression: binary
  // operators and postfix forms. Hidden from "expected ..." lists when a
  // closing token is also possible, to keep messages short.
  switch (t) {
  case ArrLexer::OROR: case ArrLexer::ANDAND: case ArrLexer::BAR: case ArrLexer::CARET:
  case ArrLexer::AMP: case ArrLexer::EQ: case ArrLexer::NE: case ArrLexer::LT:
  case ArrLexer::LE: case ArrLexer::GT: case ArrLexer::GE: case ArrLexer::SHL:
  case ArrLexer::SHR: case ArrLexer::PLUS: case ArrLexer::MINUS: case ArrLexer::PLUSPLUS:
  case ArrLexer::STAR: case ArrLexer::SLASH: case ArrLexer::PERCENT: case ArrLexer::DOT:
  case ArrLexer::LPAREN: case ArrLexer::LBRACK: case ArrLexer::WITH:
    return true;
  default:
    return false;
  }
}

std::string describeExpected(const antlr4::misc::IntervalSet &set,
                             const antlr4::dfa::Vocabulary &vocab) {
  std::vector<size_t> types;
  for (ssize_t t : set.toList())
    if (t >= 0 || t == static_cast<ssize_t>(Token::EOF))
      types.push_back(static_cast<size_t>(t));
  auto has = [&](size_t t) {
    for (size_t x : types)
      if (x == t) return true;
    return false;
  };
  if (types.empty())
    return "";
  if (has(ArrLexer::DEF) && has(ArrLexer::EXPORT) && has(ArrLexer::IMPORT))
    return "a declaration ('def', 'export', 'type' or 'import')";
  if (has(ArrLexer::ID) && has(ArrLexer::INT) && has(ArrLexer::LPAREN) && !has(ArrLexer::RPAREN) &&
      !has(ArrLexer::SEMI) && !has(ArrLexer::COMMA) && !has(ArrLexer::RBRACK))
    return "an expression";
  if (has(ArrLexer::ID) && has(ArrLexer::DOUBLE_KW) && !has(ArrLexer::INT))
    return "a type";
  std::vector<size_t> shown;
  bool closing = false;
  for (size_t t : types)
    if (!isContinuationToken(t))
      closing = true;
  for (size_t t : types)
    if (!(closing && isContinuationToken(t)))
      shown.push_back(t);
  if (shown.size() > 6)
    return "";
  std::string s;
  for (size_t i = 0; i < shown.size(); ++i) {
    if (i)
      s += (i + 1 == shown.size()) ? " or " : ", ";
    s += tokenTypeName(shown[i], vocab);
  }
  return s;
}

// Reworded ANTLR error reports.
class ErrorStrategy : public antlr4::DefaultErrorStrategy {
protected:
  void reportNoViableAlternative(antlr4::Parser *parser,
                                 const antlr4::NoViableAltException &e) override {
    Token *t = e.getOffendingToken();
    std::string msg = "unexpected " + describeToken(t);
    parser->notifyErrorListeners(t, msg, std::make_exception_ptr(e));
  }
  void reportInputMismatch(antlr4::Parser *parser,
                           const antlr4::InputMismatchException &e) override {
    Token *t = e.getOffendingToken();
    std::string expected = describeExpected(e.getExpectedTokens(), parser->getVocabulary());
    std::string msg = expected.empty() ? "unexpected " + describeToken(t)
                                       : "expected " + expected + " but found " + describeToken(t);
    parser->notifyErrorListeners(t, msg, std::make_exception_ptr(e));
  }
  void reportUnwantedToken(antlr4::Parser *parser) override {
    if (inErrorRecoveryMode(parser))
      return;
    beginErrorCondition(parser);
    Token *t = parser->getCurrentToken();
    std::string expected = describeExpected(getExpectedTokens(parser), parser->getVocabulary());
    std::string msg = "unexpected " + describeToken(t);
    if (!expected.empty())
      msg += " (expected " + expected + ")";
    parser->notifyErrorListeners(t, msg, nullptr);
  }
  void reportMissingToken(antlr4::Parser *parser) override {
    if (inErrorRecoveryMode(parser))
      return;
    beginErrorCondition(parser);
    Token *t = parser->getCurrentToken();
    std::string expected = describeExpected(getExpectedTokens(parser), parser->getVocabulary());
    std::string msg = "expected " + (expected.empty() ? std::string("something else") : expected) +
                      " but found " + describeToken(t);
    parser->notifyErrorListeners(t, msg, nullptr);
  }
};

Span tokenSpan(int file, const Token *t) {
  Span s;
  s.file = file;
  if (!t)
    return s;
  s.begin.line = static_cast<int>(t->getLine());
  s.begin.col = static_cast<int>(t->getCharPositionInLine()) + 1;
  s.end = s.begin;
  if (t->getType() == Token::EOF)
    return s;
  std::string text = t->getText();
  for (char c : text) {
    if (c == '\n') {
      ++s.end.line;
      s.end.col = 1;
    } else {
      ++s.end.col;
    }
  }
  return s;
}

class ErrorListener : public antlr4::BaseErrorListener {
public:
  ErrorListener(Diagnostics &diag, int file) : diag_(diag), file_(file) {}
  void syntaxError(antlr4::Recognizer *, Token *offending, size_t line, size_t col,
                   const std::string &msg, std::exception_ptr) override {
    ++count;
    if (stream_ && offending && suppressCascade(offending))
      return;
    Span s;
    if (offending) {
      s = tokenSpan(file_, offending);
    } else {
      s.file = file_;
      s.begin = {static_cast<int>(line), static_cast<int>(col) + 1};
      s.end = s.begin;
    }
    diag_.error(s, msg);
  }
  int count = 0;
  // Parser listener: report only the first syntax error of each top-level
  // declaration; later ones in the same declaration are cascades of the
  // first (recovery resynchronises badly), so they are counted, not printed.
  void watchParser(antlr4::CommonTokenStream *stream, const std::vector<long> *badTokens) {
    stream_ = stream;
    bad_ = badTokens;
  }

private:
  bool suppressCascade(Token *t) {
    long ti = static_cast<long>(t->getTokenIndex());
    while (scanned_ <= ti && scanned_ < static_cast<long>(stream_->size())) {
      size_t ty = stream_->get(static_cast<size_t>(scanned_))->getType();
      if (ty == ArrParser::IMPORT || ty == ArrParser::TYPE || ty == ArrParser::DEF ||
          ty == ArrParser::EXPORT)
        lastKw_ = scanned_;
      ++scanned_;
    }
    bool cascade = lastErrTok_ >= 0 && lastKw_ <= lastErrTok_ && ti >= lastErrTok_;
    // A bad character (already reported) earlier in this declaration.
    auto it = std::lower_bound(bad_->begin(), bad_->end(), lastKw_); // ascending
    if (it != bad_->end() && *it < ti)
      cascade = true;
    if (!cascade)
      lastErrTok_ = ti;
    return cascade;
  }
  Diagnostics &diag_;
  int file_;
  antlr4::CommonTokenStream *stream_ = nullptr;
  const std::vector<long> *bad_ = nullptr;
  long lastErrTok_ = -1, lastKw_ = -1, scanned_ = 0;
};

// ---------------------------------------------------------------- builder

class Builder {
public:
  Builder(Diagnostics &diag, int file) : diag_(diag), file_(file) {}
  int errors = 0;

  void buildProgram(ArrParser::ProgramContext *ctx, Module &m) {
    for (auto *top : ctx->topDecl()) {
      if (auto *imp = top->importDecl()) {
        Import i;
        i.path = unquote(imp->STRING()->getText());
        i.span = span(imp);
        m.imports.push_back(std::move(i));
      } else if (auto *al = top->typeAlias()) {
        TypeAlias a;
        a.name = al->ID()->getText();
        a.type = type(al->type());
        a.span = span(al);
        m.aliases.push_back(std::move(a));
      } else if (auto *fd = top->funDecl()) {
        m.functions.push_back(function(fd));
      }
    }
  }

private:
  Diagnostics &diag_;
  int file_;

  void error(const Span &s, const std::string &msg) {
    ++errors;
    diag_.error(s, msg);
  }

  Span span(antlr4::ParserRuleContext *ctx) const {
    Span s = tokenSpan(file_, ctx->getStart());
    Token *stop = ctx->getStop();
    if (stop && stop->getTokenIndex() >= ctx->getStart()->getTokenIndex())
      s.end = tokenSpan(file_, stop).end;
    return s;
  }
  Span span(antlr4::tree::TerminalNode *node) const { return tokenSpan(file_, node->getSymbol()); }
  static Span join(const Span &a, const Span &b) {
    Span s = a;
    s.end = b.end;
    return s;
  }

  static std::string unquote(const std::string &text) {
    std::string out;
    for (size_t i = 1; i + 1 < text.size(); ++i) {
      if (text[i] == '\\' && i + 2 < text.size()) {
        ++i;
        char c = text[i];
        out += c == 'n' ? '\n' : c == 't' ? '\t' : c;
      } else {
        out += text[i];
      }
    }
    return out;
  }

  template <class T> std::shared_ptr<T> node(const Span &s) {
    auto n = std::make_shared<T>();
    n->span = s;
    return n;
  }

  // ---- declarations
  FunDeclP function(ArrParser::FunDeclContext *ctx) {
    auto f = std::make_shared<FunDecl>();
    f->exported = ctx->EXPORT() != nullptr;
    if (auto *tp = ctx->typeParams())
      for (auto *id : tp->ID())
        f->typeParams.push_back(id->getText());
    f->result = type(ctx->type());
    f->name = ctx->ID()->getText();
    f->nameSpan = span(ctx->ID());
    f->span = span(ctx);
    if (auto *pl = ctx->paramList())
      for (auto *p : pl->param())
        f->params.push_back(Param{type(p->type()), p->ID()->getText(), span(p)});
    auto *body = ctx->funBody();
    if (auto *eb = dynamic_cast<ArrParser::ExprBodyContext *>(body)) {
      f->body = expr(eb->expr());
    } else if (auto *bb = dynamic_cast<ArrParser::BlockBodyContext *>(body)) {
      ExprP result = expr(bb->expr());
      auto lets = bb->blockLet();
      for (size_t i = lets.size(); i-- > 0;) {
        auto let = node<LetIn>(join(span(lets[i]), result->span));
        let->pattern = pattern(lets[i]->pattern());
        let->value = expr(lets[i]->expr());
        let->body = result;
        result = let;
      }
      f->body = result;
    }
    int depth = exprDepth(f->body);
    if (depth > kMaxExprDepth) {
      error(f->nameSpan, "the body of '" + f->name + "' is nested too deeply (depth " +
                             std::to_string(depth) + ", limit " + std::to_string(kMaxExprDepth) +
                             ")");
      releaseTree(f->body);
    }
    return f;
  }

  // ---- types
  TypeP type(ArrParser::TypeContext *ctx) {
    if (auto *ft = dynamic_cast<ArrParser::FunTypeContext *>(ctx)) {
      auto ts = ft->type();
      std::vector<TypeP> params;
      for (size_t i = 0; i + 1 < ts.size(); ++i)
        params.push_back(type(ts[i]));
      return Type::func(std::move(params), type(ts.back()));
    }
    auto *pt = static_cast<ArrParser::PlainTypeContext *>(ctx);
    TypeP t = atomType(pt->atomType());
    for (auto *suf : pt->arraySuffix())
      t = Type::array(t, static_cast<int>(suf->STAR().size()));
    return t;
  }

  TypeP atomType(ArrParser::AtomTypeContext *ctx) {
    if (auto *s = dynamic_cast<ArrParser::ScalarAtomContext *>(ctx))
      return Type::scalarOf(scalar(s->scalarType()));
    if (auto *n = dynamic_cast<ArrParser::NamedAtomContext *>(ctx))
      return Type::named(n->ID()->getText());
    auto *tu = static_cast<ArrParser::TupleAtomContext *>(ctx);
    auto ts = tu->type();
    if (ts.size() == 1)
      return type(ts[0]);
    std::vector<TypeP> elems;
    for (auto *t : ts)
      elems.push_back(type(t));
    return Type::tuple(std::move(elems));
  }

  static ScalarKind scalar(ArrParser::ScalarTypeContext *ctx) {
    if (ctx->BOOL()) return ScalarKind::Bool;
    if (ctx->INT_KW()) return ScalarKind::Int;
    if (ctx->LONG_KW()) return ScalarKind::Long;
    if (ctx->FLOAT_KW()) return ScalarKind::Float;
    return ScalarKind::Double;
  }

  // ---- patterns
  Pattern pattern(ArrParser::PatternContext *ctx) {
    Pattern p;
    p.span = span(ctx);
    if (auto *v = dynamic_cast<ArrParser::VarPatternContext *>(ctx)) {
      p.name = v->ID()->getText();
      p.kind = p.name == "_" ? Pattern::Wildcard : Pattern::Var;
      return p;
    }
    auto *tp = static_cast<ArrParser::TuplePatternContext *>(ctx);
    auto ps = tp->pattern();
    if (ps.size() == 1)
      return pattern(ps[0]);
    p.kind = Pattern::Tuple;
    for (auto *c : ps)
      p.elems.push_back(pattern(c));
    return p;
  }

  // ---- expressions
  ExprP expr(ArrParser::ExprContext *ctx) {
    if (auto *c = dynamic_cast<ArrParser::OpExprContext *>(ctx))
      return withExpr(c->withExpr()->orExpr(), c->withExpr()->withUpdate());
    if (auto *c = dynamic_cast<ArrParser::IfExprContext *>(ctx))
      return ifExpr(span(ctx), c->expr(0), c->expr(1), expr(c->expr(2)));
    if (auto *c = dynamic_cast<ArrParser::LetExprContext *>(ctx))
      return letExpr(span(ctx), c->pattern(), c->expr(0), expr(c->expr(1)));
    if (auto *c = dynamic_cast<ArrParser::LambdaExprContext *>(ctx))
      return lambda(span(ctx), c->pattern(), expr(c->expr()));
    auto *c = static_cast<ArrParser::LoopExprContext *>(ctx);
    return loop(span(ctx), c->pattern(), c->expr(0), c->loopHead(), expr(c->expr(1)));
  }

  ExprP nexpr(ArrParser::NexprContext *ctx) {
    if (auto *c = dynamic_cast<ArrParser::NOpExprContext *>(ctx))
      return withExpr(c->nwithExpr()->norExpr(), c->nwithExpr()->withUpdate());
    if (auto *c = dynamic_cast<ArrParser::NIfExprContext *>(ctx))
      return ifExpr(span(ctx), c->expr(0), c->expr(1), nexpr(c->nexpr()));
    if (auto *c = dynamic_cast<ArrParser::NLetExprContext *>(ctx))
      return letExpr(span(ctx), c->pattern(), c->expr(), nexpr(c->nexpr()));
    if (auto *c = dynamic_cast<ArrParser::NLambdaExprContext *>(ctx))
      return lambda(span(ctx), c->pattern(), nexpr(c->nexpr()));
    auto *c = static_cast<ArrParser::NLoopExprContext *>(ctx);
    return loop(span(ctx), c->pattern(), c->expr(), c->loopHead(), nexpr(c->nexpr()));
  }

  ExprP ifExpr(const Span &s, ArrParser::ExprContext *c, ArrParser::ExprContext *t, ExprP e) {
    auto n = node<If>(s);
    n->cond = expr(c);
    n->then = expr(t);
    n->els = std::move(e);
    return n;
  }
  ExprP letExpr(const Span &s, ArrParser::PatternContext *p, ArrParser::ExprContext *v, ExprP body) {
    auto n = node<LetIn>(s);
    n->pattern = pattern(p);
    n->value = expr(v);
    n->body = std::move(body);
    return n;
  }
  ExprP lambda(const Span &s, const std::vector<ArrParser::PatternContext *> &ps, ExprP body) {
    auto n = node<Lambda>(s);
    for (auto *p : ps)
      n->params.push_back(pattern(p));
    n->body = std::move(body);
    return n;
  }
  ExprP loop(const Span &s, ArrParser::PatternContext *p, ArrParser::ExprContext *init,
             ArrParser::LoopHeadContext *head, ExprP body) {
    auto n = node<Loop>(s);
    n->pattern = pattern(p);
    n->init = expr(init);
    if (auto *f = dynamic_cast<ArrParser::ForHeadContext *>(head)) {
      n->form = Loop::For;
      n->indexName = f->ID()->getText();
      n->indexSpan = span(f->ID());
      n->bound = expr(f->expr());
    } else {
      auto *w = static_cast<ArrParser::WhileHeadContext *>(head);
      n->form = Loop::While;
      n->cond = expr(w->expr());
    }
    n->body = std::move(body);
    return n;
  }

  template <class OperandCtx>
  ExprP withExpr(const std::vector<OperandCtx *> &operands,
                 const std::vector<ArrParser::WithUpdateContext *> &updates) {
    ExprP e = chain(operands[0]);
    for (size_t i = 0; i < updates.size(); ++i) {
      ExprP value = chain(operands[i + 1]);
      auto w = node<With>(join(e->span, value->span));
      w->array = e;
      w->args = indexArgs(updates[i]->indexArgs());
      w->value = value;
      e = w;
    }
    return e;
  }

  static BinOp binOp(const std::string &s) {
    static const std::pair<const char *, BinOp> ops[] = {
        {"+", BinOp::Add},     {"-", BinOp::Sub},     {"*", BinOp::Mul},    {"/", BinOp::Div},
        {"%", BinOp::Mod},     {"==", BinOp::Eq},     {"!=", BinOp::Ne},    {"<", BinOp::Lt},
        {"<=", BinOp::Le},     {">", BinOp::Gt},      {">=", BinOp::Ge},    {"&&", BinOp::And},
        {"||", BinOp::Or},     {"&", BinOp::BitAnd},  {"|", BinOp::BitOr},  {"^", BinOp::BitXor},
        {"<<", BinOp::Shl},    {">>", BinOp::Shr},    {"++", BinOp::Concat}};
    for (auto &[text, op] : ops)
      if (s == text)
        return op;
    return BinOp::Add;
  }

  // A left-associative operator chain: operand (op operand)*. The children of
  // every chain rule alternate between operands and operators.
  ExprP chain(antlr4::tree::ParseTree *tree) {
    if (auto *u = dynamic_cast<ArrParser::UnaryExprContext *>(tree))
      return unary(u);
    auto &kids = tree->children;
    if (kids.empty())
      return errorExpr(Span{});
    ExprP e = chain(kids[0]);
    for (size_t i = 1; i + 1 < kids.size(); i += 2) {
      ExprP rhs = chain(kids[i + 1]);
      auto b = node<Binary>(join(e->span, rhs->span));
      b->op = binOp(kids[i]->getText());
      b->lhs = e;
      b->rhs = rhs;
      e = b;
    }
    return e;
  }

  ExprP errorExpr(const Span &s) { return node<IntLit>(s); }

  ExprP unary(ArrParser::UnaryExprContext *ctx) {
    if (auto *p = dynamic_cast<ArrParser::PrefixExprContext *>(ctx)) {
      bool neg = p->MINUS() != nullptr;
      // `-42`, `-1.5`: a negative literal (so that -2147483648 is an int).
      if (neg)
        if (auto *pf = dynamic_cast<ArrParser::PostfixExprContext *>(p->unaryExpr()))
          if (pf->postfixOp().empty()) {
            auto *prim = pf->primary();
            if (dynamic_cast<ArrParser::IntLitContext *>(prim) ||
                dynamic_cast<ArrParser::LongLitContext *>(prim) ||
                dynamic_cast<ArrParser::FloatLitContext *>(prim))
              return literal(prim, span(ctx), true);
          }
      auto u = node<Unary>(span(ctx));
      u->op = neg ? UnOp::Neg : p->BANG() ? UnOp::Not : UnOp::BitNot;
      u->operand = unary(p->unaryExpr());
      return u;
    }
    auto *pf = static_cast<ArrParser::PostfixExprContext *>(ctx);
    ExprP e = primary(pf->primary());
    for (auto *op : pf->postfixOp())
      e = postfix(e, op);
    return e;
  }

  ExprP postfix(ExprP e, ArrParser::PostfixOpContext *op) {
    Span s = join(e->span, span(op));
    if (auto *c = dynamic_cast<ArrParser::CallOpContext *>(op)) {
      auto n = node<Call>(s);
      n->callee = e;
      if (auto *al = c->argList())
        for (auto *a : al->expr())
          n->args.push_back(expr(a));
      return n;
    }
    if (auto *c = dynamic_cast<ArrParser::IndexOpContext *>(op)) {
      auto n = node<Index>(s);
      n->array = e;
      n->args = indexArgs(c->indexArgs());
      return n;
    }
    if (auto *c = dynamic_cast<ArrParser::MethodOpContext *>(op)) {
      std::string name = c->ID()->getText();
      if (name != "size") {
        error(span(c->ID()), "unknown member '" + name +
                                 "': an array has .size(k) and .rank, a tuple .0, .1, ...");
        return e;
      }
      auto n = node<Size>(s);
      n->array = e;
      n->axis = expr(c->expr());
      return n;
    }
    if (auto *c = dynamic_cast<ArrParser::FieldOpContext *>(op)) {
      std::string name = c->ID()->getText();
      if (name == "rank") {
        auto n = node<Rank>(s);
        n->array = e;
        return n;
      }
      if (name == "size")
        error(span(c->ID()), "'.size' needs an axis: write A.size(k)");
      else
        error(span(c->ID()), "unknown member '" + name +
                                 "': an array has .size(k) and .rank, a tuple .0, .1, ...");
      return e;
    }
    if (auto *c = dynamic_cast<ArrParser::ProjOpContext *>(op)) {
      auto n = node<Project>(s);
      n->tuple = e;
      n->index = projIndex(c->INT()->getText(), span(c->INT()));
      return n;
    }
    // `t.0.1` lexes as t . FLOAT(0.1): two projections.
    auto *c = static_cast<ArrParser::ProjPairOpContext *>(op);
    std::string text = c->FLOAT()->getText();
    Span fs = span(c->FLOAT());
    size_t dot = text.find('.');
    bool ok = dot != std::string::npos && dot > 0 && dot + 1 < text.size();
    for (size_t i = 0; ok && i < text.size(); ++i)
      if (i != dot && !std::isdigit(static_cast<unsigned char>(text[i])))
        ok = false;
    if (!ok) {
      error(fs, "invalid tuple projection '." + clip(text) + "': write .0, .1, ...");
      return e;
    }
    Span s1 = fs;
    s1.end.col = s1.begin.col + static_cast<int>(dot);
    auto first = node<Project>(join(e->span, s1));
    first->tuple = e;
    first->index = projIndex(text.substr(0, dot), s1);
    auto second = node<Project>(s);
    second->tuple = first;
    Span s2 = fs;
    s2.begin.col = s1.end.col + 1;
    second->index = projIndex(text.substr(dot + 1), s2);
    return second;
  }

  int projIndex(const std::string &digits, const Span &s) {
    if (digits.size() > 6) {
      error(s, "tuple projection index '" + clip(digits) + "' is too large");
      return 0;
    }
    return std::atoi(digits.c_str());
  }

  std::vector<IndexArg> indexArgs(ArrParser::IndexArgsContext *ctx) {
    std::vector<IndexArg> args;
    for (auto *a : ctx->indexArg()) {
      IndexArg arg;
      arg.span = span(a);
      if (dynamic_cast<ArrParser::AllArgContext *>(a)) {
        arg.kind = IndexArg::All;
      } else if (auto *t = dynamic_cast<ArrParser::TripletArgContext *>(a)) {
        arg.kind = IndexArg::Triplet;
        arg.first = expr(t->expr(0));
        arg.last = expr(t->expr(1));
        if (t->expr().size() > 2)
          arg.step = expr(t->expr(2));
      } else {
        arg.kind = IndexArg::Single;
        arg.index = expr(static_cast<ArrParser::SingleArgContext *>(a)->expr());
      }
      args.push_back(std::move(arg));
    }
    return args;
  }

  ExprP literal(ArrParser::PrimaryContext *ctx, const Span &s, bool negative) {
    std::string text = ctx->getText();
    if (dynamic_cast<ArrParser::FloatLitContext *>(ctx)) {
      auto n = node<FloatLit>(s);
      bool isFloat = !text.empty() && (text.back() == 'f' || text.back() == 'F');
      std::string digits = isFloat ? text.substr(0, text.size() - 1) : text;
      n->scalar = isFloat ? ScalarKind::Float : ScalarKind::Double;
      errno = 0;
      double v = std::strtod(digits.c_str(), nullptr);
      if (errno == ERANGE && std::isinf(v))
        error(s, "floating-point literal '" + clip(text) + "' is out of range");
      if (isFloat && std::isfinite(v) && std::fabs(v) > 3.4028234663852886e38)
        error(s, "float literal '" + clip(text) + "' is out of range for float");
      n->value = negative ? -v : v;
      n->text = (negative ? "-" : "") + text;
      return n;
    }
    bool isLong = dynamic_cast<ArrParser::LongLitContext *>(ctx) != nullptr;
    std::string digits = isLong ? text.substr(0, text.size() - 1) : text;
    auto n = node<IntLit>(s);
    n->scalar = isLong ? ScalarKind::Long : ScalarKind::Int;
    // Accumulate with overflow detection.
    unsigned long long v = 0;
    bool overflow = false;
    for (char c : digits) {
      unsigned d = static_cast<unsigned>(c - '0');
      if (v > (~0ULL - d) / 10) {
        overflow = true;
        break;
      }
      v = v * 10 + d;
    }
    unsigned long long limit = isLong ? (1ULL << 63) : (1ULL << 31);
    if (overflow || v > limit || (v == limit && !negative)) {
      error(s, std::string("integer literal '") + (negative ? "-" : "") + clip(text) +
                   "' is out of range for " + (isLong ? "long" : "int") +
                   (isLong ? "" : " (use the L suffix for a long)"));
      v = 0;
    }
    n->value = negative ? static_cast<int64_t>(0ULL - v) : static_cast<int64_t>(v);
    return n;
  }

  ExprP primary(ArrParser::PrimaryContext *ctx) {
    Span s = span(ctx);
    if (dynamic_cast<ArrParser::IntLitContext *>(ctx) ||
        dynamic_cast<ArrParser::LongLitContext *>(ctx) ||
        dynamic_cast<ArrParser::FloatLitContext *>(ctx))
      return literal(ctx, s, false);
    if (auto *c = dynamic_cast<ArrParser::BoolLitContext *>(ctx)) {
      auto n = node<BoolLit>(s);
      n->value = c->TRUE() != nullptr;
      return n;
    }
    if (auto *c = dynamic_cast<ArrParser::VarExprContext *>(ctx)) {
      auto n = node<VarRef>(s);
      n->name = c->ID()->getText();
      return n;
    }
    if (auto *c = dynamic_cast<ArrParser::ConvExprContext *>(ctx)) {
      auto n = node<Convert>(s);
      n->to = scalar(c->scalarType());
      n->operand = expr(c->expr());
      return n;
    }
    if (auto *c = dynamic_cast<ArrParser::NewExprContext *>(ctx)) {
      auto n = node<New>(s);
      n->elemType = atomType(c->atomType());
      for (auto *d : c->expr())
        n->dims.push_back(expr(d));
      return n;
    }
    if (auto *c = dynamic_cast<ArrParser::SectionExprContext *>(ctx)) {
      auto n = node<OpSection>(s);
      n->isBinOp = true;
      n->op = binOp(c->sectionOp()->getText());
      return n;
    }
    if (auto *c = dynamic_cast<ArrParser::ParenExprContext *>(ctx)) {
      auto es = c->expr();
      if (es.size() == 1)
        return expr(es[0]); // `(e)`, including `(min)`: just a name
      auto n = node<TupleExpr>(s);
      for (auto *e : es)
        n->elems.push_back(expr(e));
      return n;
    }
    if (dynamic_cast<ArrParser::EmptyArrayContext *>(ctx))
      return node<ArrayLit>(s);
    auto *c = static_cast<ArrParser::BracketExprContext *>(ctx);
    ExprP first = nexpr(c->nexpr());
    auto *tail = c->bracketTail();
    if (auto *r = dynamic_cast<ArrParser::InclRangeContext *>(tail)) {
      auto n = node<Range>(s);
      n->lo = first;
      n->hi = nexpr(r->nexpr());
      n->inclusive = true;
      return n;
    }
    if (auto *r = dynamic_cast<ArrParser::ExclRangeContext *>(tail)) {
      auto n = node<Range>(s);
      n->lo = first;
      n->hi = nexpr(r->nexpr());
      n->inclusive = false;
      return n;
    }
    if (auto *l = dynamic_cast<ArrParser::ListTailContext *>(tail)) {
      auto n = node<ArrayLit>(s);
      n->elems.push_back(first);
      for (auto *e : l->nexpr())
        n->elems.push_back(nexpr(e));
      return n;
    }
    auto *comp = static_cast<ArrParser::CompTailContext *>(tail);
    auto n = node<Comprehension>(s);
    n->head = first;
    auto branches = comp->qualBranch();
    for (size_t b = 0; b < branches.size(); ++b) {
      std::vector<Qualifier> qs;
      for (auto *q : branches[b]->qualifier())
        qs.push_back(qualifier(q));
      checkBranch(qs, b, span(branches[b]));
      n->branches.push_back(std::move(qs));
    }
    return n;
  }

  Qualifier qualifier(ArrParser::QualifierContext *ctx) {
    Qualifier q;
    q.span = span(ctx);
    if (auto *b = dynamic_cast<ArrParser::BindQualContext *>(ctx)) {
      q.kind = Qualifier::Bind;
      q.pattern = pattern(b->pattern());
      q.expr = nexpr(b->nexpr());
    } else if (auto *l = dynamic_cast<ArrParser::LetQualContext *>(ctx)) {
      q.kind = Qualifier::Let;
      q.pattern = pattern(l->pattern());
      q.expr = nexpr(l->nexpr());
    } else {
      q.kind = Qualifier::Filter;
      q.expr = nexpr(static_cast<ArrParser::FilterQualContext *>(ctx)->nexpr());
    }
    return q;
  }

  // Each branch needs a binding before any filter (Elsman & Larsen: a filter
  // needs something to filter). A filter first is most often a bitwise `|`
  // that was meant to be part of the head or of a generator.
  void checkBranch(const std::vector<Qualifier> &qs, size_t index, const Span &s) {
    for (const Qualifier &q : qs) {
      if (q.kind == Qualifier::Let)
        continue;
      if (q.kind == Qualifier::Bind)
        return;
      error(q.span, std::string(index == 0 ? "a comprehension" : "a zipped branch") +
                        " must start with a binding 'x <- xs', not a filter (a bitwise '|' in a "
                        "comprehension head or generator must be parenthesised: write (a | b))");
      return;
    }
    error(s, "this comprehension branch has no binding 'x <- xs'");
  }
};

// ---------------------------------------------------------------- token checks

// Reports bad characters, unterminated comments and strings, and nesting that
// would make the parser recurse too deeply. Returns false if parsing this
// file must not be attempted (too deep). Removes ERRCHAR tokens.
bool checkTokens(std::vector<std::unique_ptr<Token>> &tokens, const std::string &original,
                 Diagnostics &diag, int file, int &errors, std::vector<long> &badTokens) {
  std::vector<std::unique_ptr<Token>> kept;
  kept.reserve(tokens.size());
  int depth = 0, prefixRun = 0;
  bool ok = true;
  for (auto &t : tokens) {
    size_t type = t->getType();
    Span s = tokenSpan(file, t.get());
    switch (type) {
    case ArrLexer::ERRCHAR: {
      size_t at = t->getStartIndex();
      unsigned char c = at < original.size() ? static_cast<unsigned char>(original[at]) : '?';
      ++errors;
      if (c >= 0x80 || c < 0x20 || c == 0x7f) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "unexpected byte 0x%02X (Arr source is ASCII outside comments)", c);
        diag.error(s, buf);
      } else {
        diag.error(s, std::string("unexpected character '") + static_cast<char>(c) + "'");
      }
      badTokens.push_back(static_cast<long>(kept.size()) - 1);
      continue; // dropped: the parser never sees it
    }
    case ArrLexer::UNTERMINATED_STRING:
      ++errors;
      diag.error(s, "unterminated string (missing closing '\"' on this line)");
      badTokens.push_back(static_cast<long>(kept.size()) - 1);
      continue;
    case ArrLexer::BLOCK_COMMENT: {
      std::string text = t->getText();
      if (text.size() < 4 || text.compare(text.size() - 2, 2, "*/") != 0) {
        ++errors;
        Span b = s;
        b.end = {b.begin.line, b.begin.col + 2};
        diag.error(b, "unterminated comment: '/*' without a matching '*/'");
      }
      break;
    }
    case ArrLexer::LPAREN:
    case ArrLexer::LBRACK:
    case ArrLexer::LBRACE:
      if (++depth > kMaxBracketNesting && ok) {
        ++errors;
        diag.error(s, "nesting too deep (limit " + std::to_string(kMaxBracketNesting) + ")");
        ok = false;
      }
      break;
    case ArrLexer::RPAREN:
    case ArrLexer::RBRACK:
    case ArrLexer::RBRACE:
      if (depth > 0)
        --depth;
      break;
    default:
      break;
    }
    if (t->getChannel() == Token::DEFAULT_CHANNEL) {
      // Consecutive - ! ~ tokens can only be prefix operators (after the first).
      bool prefix = type == ArrLexer::BANG || type == ArrLexer::TILDE || type == ArrLexer::MINUS;
      prefixRun = prefix ? prefixRun + 1 : 0;
      if (prefixRun > kMaxPrefixRun && ok) {
        ++errors;
        diag.error(s, "nesting too deep: more than " + std::to_string(kMaxPrefixRun) +
                          " prefix operators in a row");
        ok = false;
      }
    }
    kept.push_back(std::move(t));
  }
  tokens = std::move(kept);
  return ok;
}

// ANTLR's C++ runtime rejects invalid UTF-8. We lex a copy in which every
// byte outside printable ASCII (other than whitespace) becomes DEL (0x7F), so
// columns are byte columns and bad bytes become ERRCHAR tokens; comments may
// still hold any bytes.
std::string sanitize(const std::string &text) {
  std::string out = text;
  for (char &c : out) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x80 || (u < 0x20 && u != '\n' && u != '\r' && u != '\t' && u != '\f'))
      c = 0x7f;
  }
  return out;
}

bool parseImpl(SourceManager &sources, Diagnostics &diag, int file, Module &out) {
  const std::string &original = sources.text(file);
  int errors = 0;

  antlr4::ANTLRInputStream input(sanitize(original));
  ArrLexer lexer(&input);
  ErrorListener lexListener(diag, file);
  lexer.removeErrorListeners();
  lexer.addErrorListener(&lexListener);
  // All tokens, the EOF token included (the list token source needs one).
  std::vector<std::unique_ptr<Token>> tokens;
  for (;;) {
    std::unique_ptr<Token> t = lexer.nextToken();
    bool eof = t->getType() == Token::EOF;
    tokens.push_back(std::move(t));
    if (eof)
      break;
  }
  errors += lexListener.count;
  std::vector<long> badTokens; // for each bad character, the kept token before it
  if (!checkTokens(tokens, original, diag, file, errors, badTokens))
    return false;

  // The token source must end with an EOF token positioned after the text.
  antlr4::ListTokenSource source(std::move(tokens));
  antlr4::CommonTokenStream stream(&source);
  ArrParser parser(&stream);
  ErrorListener listener(diag, file);
  parser.removeErrorListeners();

  ArrParser::ProgramContext *tree = nullptr;
  // Stage 1: SLL, bail out at the first error.
  parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
      antlr4::atn::PredictionMode::SLL);
  parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
  try {
    tree = parser.program();
  } catch (antlr4::ParseCancellationException &) {
    tree = nullptr;
  } catch (antlr4::RecognitionException &) {
    tree = nullptr;
  }
  if (!tree) {
    // Stage 2: full LL with error recovery and user-worded messages.
    stream.seek(0);
    parser.reset();
    parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
        antlr4::atn::PredictionMode::LL);
    parser.setErrorHandler(std::make_shared<ErrorStrategy>());
    stream.fill();
    listener.watchParser(&stream, &badTokens);
    parser.addErrorListener(&listener);
    tree = parser.program();
  }
  errors += listener.count;
  if (errors > 0 || !tree)
    return false;

  Builder builder(diag, file);
  builder.buildProgram(tree, out);
  return builder.errors == 0;
}

} // namespace

std::string moduleNameFromPath(const std::string &path) {
  size_t slash = path.find_last_of("/\\");
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  size_t dot = base.find_last_of('.');
  if (dot != std::string::npos && dot > 0)
    base = base.substr(0, dot);
  std::string name;
  for (char c : base)
    name += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])))
    name = "_" + name;
  static const char *const reserved[] = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break",
      "case", "catch", "char", "char16_t", "char32_t", "class", "compl", "const", "constexpr",
      "const_cast", "continue", "decltype", "default", "delete", "do", "double", "dynamic_cast",
      "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto",
      "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
      "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register",
      "reinterpret_cast", "return", "short", "signed", "sizeof", "static", "static_assert",
      "static_cast", "struct", "switch", "template", "this", "thread_local", "throw", "true",
      "try", "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual", "void",
      "volatile", "wchar_t", "while", "xor", "xor_eq", "std", "arrc"};
  for (const char *r : reserved)
    if (name == r)
      return name + "_";
  return name;
}

bool parseSource(SourceManager &sources, Diagnostics &diag, int file, Module &out) {
  out.file = file;
  out.path = sources.path(file);
  out.name = moduleNameFromPath(out.path);
  bool ok = false;
  int before = diag.errorCount();
  try {
    runWithLargeStack([&] { ok = parseImpl(sources, diag, file, out); });
  } catch (const std::exception &e) {
    Span s;
    s.file = file;
    s.begin = s.end = {1, 1};
    diag.error(s, std::string("internal error while parsing: ") + e.what());
    ok = false;
  } catch (...) {
    Span s;
    s.file = file;
    s.begin = s.end = {1, 1};
    diag.error(s, "internal error while parsing");
    ok = false;
  }
  return ok && diag.errorCount() == before;
}

} // namespace arrc
