" Vim/Neovim compiler file for nvtxtc (nvtxtc(1)): `:compiler nvtxtc` then
" `:make` checks the current file with `nvtxtc lint` and fills the quickfix
" list with its errors, warnings and notes (GCC format, FILE:LINE:COL:).
if exists("current_compiler")
  finish
endif
let current_compiler = "nvtxtc"
if exists(":CompilerSet") != 2
  command -nargs=* CompilerSet setlocal <args>
endif
let s:cpo_save = &cpo
set cpo&vim
CompilerSet makeprg=nvtxtc\ lint\ --color=never\ %:S
" Errors, warnings and notes; excerpts, carets, fix-its and the summary
" line are dropped; the tool's own errors (a file it cannot read) are kept.
CompilerSet errorformat=
      \%f:%l:%c:\ %trror:\ %m,
      \%f:%l:%c:\ %tarning:\ %m,
      \%f:%l:%c:\ %tote:\ %m,
      \%f:\ %tote:\ %m,
      \nvtxtc:\ %trror:\ %m,
      \%-G%.%#
let &cpo = s:cpo_save
unlet s:cpo_save
