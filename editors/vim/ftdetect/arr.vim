" Arr source files (arrc). `set filetype`, not `setfiletype`: Vim's own
" filetype.vim already maps *.arr to Pyret.
autocmd BufRead,BufNewFile *.arr set filetype=arr
