" Vim/Neovim filetype detection for NVTXT (nvtxt(5)), from nvtxtc.
autocmd BufNewFile,BufRead *.nvtxt setfiletype nvtxt
