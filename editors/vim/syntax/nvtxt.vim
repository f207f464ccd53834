" Vim/Neovim syntax file for NVTXT (nvtxt(5)), from nvtxtc.
if exists("b:current_syntax")
  finish
endif
let s:cpo_save = &cpo
set cpo&vim

syn case match
" a comment: the first non-blank character is #
syn match nvtxtComment /^\s*#.*$/ contains=@Spell
" a definition: @Command, Argument, ...
syn match nvtxtDefinition /^\s*@\s*\h\w*/ nextgroup=nvtxtArgList
syn match nvtxtArgList /.*$/ contained contains=nvtxtArgument
syn keyword nvtxtArgument contained Time Start End TimeBase ProcessId ThreadId CategoryId Color Message Payload Name ParentCategoryId
" an assignment: Name = value
syn match nvtxtVariable /^\s*\h\w*\ze\s*=/
" a call: the command name at the start of a line
syn match nvtxtCommand /^\s*\(Marker\|RangePush\|RangePop\|RangeStartEnd\|NameCategory\|AddChildCategory\|NameOsThread\|NameProcess\|SetFileDisplayName\)\>/
" values
syn region nvtxtString start=/"/ end=/"\|$/ oneline
syn region nvtxtString start=/'/ end=/'\|$/ oneline
syn match nvtxtExpansion /\$\h\w*/
syn match nvtxtInteger /\%(^\|[,=]\)\s*\zs[-+]\=\d\+\ze\s*\%(,\|$\)/
syn match nvtxtInteger /\%(^\|[,=]\)\s*\zs0[xX]\x\{1,16}\ze\s*\%(,\|$\)/
syn keyword nvtxtTimeBase Qpc Rdtsc FileTime Manual Relative ClockMonotonicRaw CNTVCT

hi def link nvtxtComment Comment
hi def link nvtxtDefinition PreProc
hi def link nvtxtArgument Type
hi def link nvtxtVariable Identifier
hi def link nvtxtCommand Statement
hi def link nvtxtString String
hi def link nvtxtExpansion Identifier
hi def link nvtxtInteger Number
hi def link nvtxtTimeBase Constant

let b:current_syntax = "nvtxt"
let &cpo = s:cpo_save
unlet s:cpo_save
