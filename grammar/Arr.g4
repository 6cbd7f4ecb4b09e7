// The grammar of Arr (see /work/shared/LANGUAGE.md and docs/language.md).
// The C++ lexer and parser are generated at build time by the ANTLR 4 tool;
// frontend/src/Parser.cpp turns the parse tree into our AST (arrc/AST.h).
//
// Expression precedence, loosest first (C order for the binary operators):
//   if/let/lambda/loop (extend as far right as possible)
//   with                                  A with [i] = v  (left-assoc chain)
//   ||   &&   |   ^   &   == !=   < <= > >=   << >>   + - ++   * / %
//   unary - ! ~
//   postfix: call f(x), index A[i, :], .size(k), .rank, .0 projection
//
// Inside array brackets `[ ... ]` (literals, ranges, comprehensions) a
// top-level `|` always separates comprehension qualifiers: a bitwise or there
// must be parenthesised. The rules prefixed with `n` (nexpr, nwithExpr,
// norExpr, nandExpr) are the copies of the expression rules without `|`.
grammar Arr;

// ============================================================== declarations
program : topDecl* EOF ;

topDecl
  : importDecl
  | typeAlias
  | funDecl
  ;

importDecl : IMPORT STRING SEMI ;
typeAlias  : TYPE ID ASSIGN type SEMI ;
funDecl    : typeParams? (DEF | EXPORT) type ID LPAREN paramList? RPAREN funBody ;
typeParams : LT ID (COMMA ID)* GT ;
paramList  : param (COMMA param)* ;
param      : type ID ;

funBody
  : ASSIGN expr SEMI                            # exprBody
  | LBRACE blockLet* RETURN expr SEMI RBRACE    # blockBody
  ;
blockLet : LET pattern ASSIGN expr SEMI ;

// ===================================================================== types
type
  : LPAREN (type (COMMA type)*)? RPAREN ARROW type   # funType
  | atomType arraySuffix*                            # plainType
  ;
atomType
  : scalarType                                       # scalarAtom
  | ID                                               # namedAtom
  | LPAREN type (COMMA type)* RPAREN                 # tupleAtom
  ;
arraySuffix : LBRACK LBRACK STAR (COMMA STAR)* RBRACK RBRACK ;
scalarType  : BOOL | INT_KW | LONG_KW | FLOAT_KW | DOUBLE_KW ;

// ================================================================== patterns
pattern
  : ID                                               # varPattern
  | LPAREN pattern (COMMA pattern)* RPAREN           # tuplePattern
  ;

// =============================================================== expressions
expr
  : IF expr THEN expr ELSE expr                                  # ifExpr
  | LET pattern ASSIGN expr IN expr                              # letExpr
  | BACKSLASH pattern+ ARROW expr                                # lambdaExpr
  | LOOP LPAREN pattern ASSIGN expr RPAREN loopHead DO expr      # loopExpr
  | withExpr                                                     # opExpr
  ;
// expr without a top-level bitwise `|` (comprehension heads and qualifiers)
nexpr
  : IF expr THEN expr ELSE nexpr                                 # nIfExpr
  | LET pattern ASSIGN expr IN nexpr                             # nLetExpr
  | BACKSLASH pattern+ ARROW nexpr                               # nLambdaExpr
  | LOOP LPAREN pattern ASSIGN expr RPAREN loopHead DO nexpr     # nLoopExpr
  | nwithExpr                                                    # nOpExpr
  ;
loopHead
  : FOR ID LT expr                                               # forHead
  | WHILE expr                                                   # whileHead
  ;

withExpr  : orExpr (withUpdate orExpr)* ;
nwithExpr : norExpr (withUpdate norExpr)* ;
withUpdate : WITH LBRACK indexArgs RBRACK ASSIGN ;

orExpr     : andExpr (OROR andExpr)* ;
norExpr    : nandExpr (OROR nandExpr)* ;
andExpr    : bitorExpr (ANDAND bitorExpr)* ;
nandExpr   : bitxorExpr (ANDAND bitxorExpr)* ;
bitorExpr  : bitxorExpr (BAR bitxorExpr)* ;
bitxorExpr : bitandExpr (CARET bitandExpr)* ;
bitandExpr : eqExpr (AMP eqExpr)* ;
eqExpr     : relExpr (eqOp relExpr)* ;
relExpr    : shiftExpr (relOp shiftExpr)* ;
shiftExpr  : addExpr (shiftOp addExpr)* ;
addExpr    : mulExpr (addOp mulExpr)* ;
mulExpr    : unaryExpr (mulOp unaryExpr)* ;
eqOp    : EQ | NE ;
relOp   : LT | LE | GT | GE ;
shiftOp : SHL | SHR ;
addOp   : PLUS | MINUS | PLUSPLUS ;
mulOp   : STAR | SLASH | PERCENT ;

unaryExpr
  : (MINUS | BANG | TILDE) unaryExpr                             # prefixExpr
  | primary postfixOp*                                           # postfixExpr
  ;

postfixOp
  : LPAREN argList? RPAREN                                       # callOp
  | LBRACK indexArgs RBRACK                                      # indexOp
  | DOT ID LPAREN expr RPAREN                                    # methodOp
  | DOT ID                                                       # fieldOp
  | DOT INT                                                      # projOp
  | DOT FLOAT                                                    # projPairOp
  ;
argList : expr (COMMA expr)* ;

indexArgs : indexArg (COMMA indexArg)* ;
indexArg
  : COLON                                                        # allArg
  | expr COLON expr (COLON expr)?                                # tripletArg
  | expr                                                         # singleArg
  ;

primary
  : INT                                                          # intLit
  | LONG                                                         # longLit
  | FLOAT                                                        # floatLit
  | (TRUE | FALSE)                                               # boolLit
  | ID                                                           # varExpr
  | scalarType LPAREN expr RPAREN                                # convExpr
  | NEW atomType LBRACK LBRACK expr (COMMA expr)* RBRACK RBRACK  # newExpr
  | LPAREN sectionOp RPAREN                                      # sectionExpr
  | LPAREN expr (COMMA expr)* RPAREN                             # parenExpr
  | LBRACK RBRACK                                                # emptyArray
  | LBRACK nexpr bracketTail RBRACK                              # bracketExpr
  ;

sectionOp
  : PLUS | MINUS | STAR | SLASH | PERCENT | PLUSPLUS
  | EQ | NE | LT | LE | GT | GE
  | ANDAND | OROR | AMP | BAR | CARET | SHL | SHR
  ;

bracketTail
  : DOTDOT nexpr                                                 # inclRange
  | DOTDOTLT nexpr                                               # exclRange
  | BAR qualBranch (BAR qualBranch)*                             # compTail
  | (COMMA nexpr)*                                               # listTail
  ;
qualBranch : qualifier (COMMA qualifier)* ;
qualifier
  : pattern LARROW nexpr                                         # bindQual
  | LET pattern ASSIGN nexpr                                     # letQual
  | nexpr                                                        # filterQual
  ;

// ===================================================================== lexer
IMPORT : 'import' ;
TYPE   : 'type' ;
DEF    : 'def' ;
EXPORT : 'export' ;
LET    : 'let' ;
IN     : 'in' ;
IF     : 'if' ;
THEN   : 'then' ;
ELSE   : 'else' ;
LOOP   : 'loop' ;
FOR    : 'for' ;
WHILE  : 'while' ;
DO     : 'do' ;
NEW    : 'new' ;
WITH   : 'with' ;
TRUE   : 'true' ;
FALSE  : 'false' ;
RETURN : 'return' ;
BOOL      : 'bool' ;
INT_KW    : 'int' ;
LONG_KW   : 'long' ;
FLOAT_KW  : 'float' ;
DOUBLE_KW : 'double' ;

// `1..5` is INT DOTDOT INT: a FLOAT needs digits on both sides of its dot.
FLOAT : DIGITS '.' DIGITS EXPONENT? [fF]?
      | DIGITS EXPONENT [fF]?
      ;
LONG  : DIGITS [lL] ;
INT   : DIGITS ;
ID    : [A-Za-z_] [A-Za-z0-9_]* ;

STRING : '"' (~["\\\r\n] | '\\' ~[\r\n])* '"' ;
// Reported by the frontend as "unterminated string".
UNTERMINATED_STRING : '"' (~["\\\r\n] | '\\' ~[\r\n])* ;

DOTDOTLT : '..<' ;
DOTDOT   : '..' ;
DOT      : '.' ;
LARROW   : '<-' ;
ARROW    : '->' ;
SHL      : '<<' ;
SHR      : '>>' ;
LE       : '<=' ;
GE       : '>=' ;
EQ       : '==' ;
NE       : '!=' ;
LT       : '<' ;
GT       : '>' ;
ANDAND   : '&&' ;
OROR     : '||' ;
PLUSPLUS : '++' ;
PLUS     : '+' ;
MINUS    : '-' ;
STAR     : '*' ;
SLASH    : '/' ;
PERCENT  : '%' ;
AMP      : '&' ;
BAR      : '|' ;
CARET    : '^' ;
TILDE    : '~' ;
BANG     : '!' ;
ASSIGN   : '=' ;
BACKSLASH: '\\' ;
LPAREN   : '(' ;
RPAREN   : ')' ;
LBRACK   : '[' ;
RBRACK   : ']' ;
LBRACE   : '{' ;
RBRACE   : '}' ;
COMMA    : ',' ;
SEMI     : ';' ;
COLON    : ':' ;

LINE_COMMENT  : '//' ~[\r\n]* -> channel(HIDDEN) ;
// An unterminated block comment runs to the end of the file; the frontend
// reports it (the token text then does not end with "*/").
BLOCK_COMMENT : '/*' .*? ('*/' | EOF) -> channel(HIDDEN) ;
WS            : [ \t\r\n\f]+ -> skip ;
// Anything else: reported by the frontend as "unexpected character".
ERRCHAR       : . ;

fragment DIGITS   : [0-9]+ ;
fragment EXPONENT : [eE] [+-]? [0-9]+ ;
