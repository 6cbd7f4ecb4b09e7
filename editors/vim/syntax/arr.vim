" Vim syntax file
" Language:    Arr (the data-parallel array language of arrc)
" Filenames:   *.arr
" Install:     copy editors/vim/ to ~/.vim/ (or add it to 'runtimepath'):
"                mkdir -p ~/.vim && cp -r editors/vim/* ~/.vim/
" The keyword and builtin lists are checked against the compiler by
" test/editors/check_grammars.py.

if exists("b:current_syntax")
  finish
endif

let s:cpo_save = &cpo
set cpo&vim

syn keyword arrDeclaration def export type import
syn keyword arrConditional if then else
syn keyword arrRepeat      loop for while do
syn keyword arrKeyword     let in return with new
syn keyword arrBoolean     true false
syn keyword arrType        bool int long float double

syn keyword arrBuiltin map filter zip unzip reduce scan iota replicate length concat
syn keyword arrBuiltin expand expand_reduce scatter gather hist sort sort_by reduce_by_key
syn keyword arrBuiltin sum product maximum minimum reverse transpose flatten unflatten
syn keyword arrBuiltin segmented_scan segmented_reduce
syn keyword arrBuiltin sqrt exp log sin cos tan erf floor ceil round isnan pow atan2 abs min max
syn keyword arrBuiltin count any all partition take drop rotate argmin argmax
syn keyword arrBuiltin dot matvec matmul outer repl_iota segm_iota
syn match   arrMember  "\.\@<=\(size\|rank\)\>"

" T[[*]], T[[*,*]]: multiarray types
syn match   arrArrayType "\[\[\s*\*\(\s*,\s*\*\)*\s*\]\]"

" (numbers first: of the matches that start at one place, Vim takes the last defined)
syn match   arrNumber  "\<\d\+[lL]\=\>"
syn match   arrFloat   "\<\d\+\.\d\+\([eE][+-]\=\d\+\)\=[fF]\=\>"
syn match   arrFloat   "\<\d\+[eE][+-]\=\d\+[fF]\=\>"

syn match   arrOperator "<-\|->\|\.\.<\|\.\.\|++\|&&\|||\|==\|!=\|<=\|>=\|<<\|>>\|[-+*/%<>=!~^&|\\:]"
syn match   arrFunction "\<\h\w*\ze\s*("

syn region  arrString  start=+"+ skip=+\\.+ end=+"+ end=+$+ oneline

" Test and benchmark blocks (docs/testing.md) inside comments
syn match   arrTestBlock "//\s*==\s*\(test\|bench\)\>"ms=s+2 contained
syn match   arrTestKey   "//\s*\(in\|out\|error\|tags\|tolerance\|entry\|gen\|sizes\|bytes\):"ms=s+2 contained
syn match   arrLineComment "//.*$" contains=arrTestBlock,arrTestKey,arrTodo,@Spell
syn region  arrBlockComment start="/\*" end="\*/" contains=arrTodo,@Spell
syn keyword arrTodo TODO FIXME XXX NOTE contained

hi def link arrDeclaration Structure
hi def link arrConditional Conditional
hi def link arrRepeat      Repeat
hi def link arrKeyword     Keyword
hi def link arrBoolean     Boolean
hi def link arrType        Type
hi def link arrArrayType   Type
hi def link arrBuiltin     Function
hi def link arrMember      Function
hi def link arrFunction    Function
hi def link arrFloat       Float
hi def link arrNumber      Number
hi def link arrOperator    Operator
hi def link arrString      String
hi def link arrLineComment Comment
hi def link arrBlockComment Comment
hi def link arrTestBlock   PreProc
hi def link arrTestKey     Special
hi def link arrTodo        Todo

let b:current_syntax = "arr"

let &cpo = s:cpo_save
unlet s:cpo_save
