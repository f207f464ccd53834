# install: make install and make uninstall, under PREFIX and DESTDIR (read by the Makefile)

install: $(BIN) $(LIBS)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR)/nvtxt $(DESTDIR)$(MANDIR)/man3
	install -m 644 $(B)/libnvtxt.a $(DESTDIR)$(LIBDIR)/libnvtxt.a
	install -m 755 $(B)/$(LIB_SONAME) $(DESTDIR)$(LIBDIR)/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(DESTDIR)$(LIBDIR)/libnvtxt.so
	$(PC_SED) > $(DESTDIR)$(LIBDIR)/pkgconfig/nvtxt.pc
	install -m 644 $(PUBLIC_HEADERS) src/lang/checks.def $(DESTDIR)$(INCLUDEDIR)/nvtxt/
	install -m 644 man/libnvtxt.3 $(DESTDIR)$(MANDIR)/man3/libnvtxt.3
	install -m 755 nvtxtc $(DESTDIR)$(BINDIR)/nvtxtc
	install -m 644 man/nvtxtc.1 $(DESTDIR)$(MANDIR)/man1/nvtxtc.1
	for p in man/*.5; do install -m 644 $$p $(DESTDIR)$(MANDIR)/man5/; done
	for d in $(DESTDIR)$(VIMDIR) $(DESTDIR)$(NVIMDIR); do \
		for k in ftdetect ftplugin syntax compiler; do \
			install -d $$d/$$k && install -m 644 editors/vim/$$k/*.vim $$d/$$k/ || exit 1; \
		done; \
	done
	install -d $(DESTDIR)$(LISPDIR)
	install -m 644 editors/emacs/nvtxt-mode.el $(DESTDIR)$(LISPDIR)/
	install -d $(DESTDIR)$(DATADIR)
	install -m 644 editors/textmate/nvtxt.tmLanguage.json $(DESTDIR)$(DATADIR)/
	install -d $(DESTDIR)$(BASH_COMPLETIONSDIR)
	install -m 644 completion/nvtxtc.bash $(DESTDIR)$(BASH_COMPLETIONSDIR)/nvtxtc

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/nvtxtc $(DESTDIR)$(MANDIR)/man1/nvtxtc.1
	rm -f $(DESTDIR)$(LIBDIR)/libnvtxt.a $(DESTDIR)$(LIBDIR)/$(LIB_SONAME) $(DESTDIR)$(LIBDIR)/libnvtxt.so
	rm -f $(DESTDIR)$(LIBDIR)/pkgconfig/nvtxt.pc $(DESTDIR)$(MANDIR)/man3/libnvtxt.3
	rm -rf $(DESTDIR)$(INCLUDEDIR)/nvtxt
	rm -f $(DESTDIR)$(BASH_COMPLETIONSDIR)/nvtxtc
	for p in man/*.5; do rm -f $(DESTDIR)$(MANDIR)/man5/$${p#man/}; done
	for d in $(DESTDIR)$(VIMDIR) $(DESTDIR)$(NVIMDIR); do \
		for f in editors/vim/*/*.vim; do rm -f $$d/$${f#editors/vim/}; done; \
	done
	rm -f $(DESTDIR)$(DATADIR)/nvtxt.tmLanguage.json
	rm -f $(DESTDIR)$(LISPDIR)/nvtxt-mode.el

.PHONY: install uninstall
