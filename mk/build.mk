# build: the generated parser, the objects, libnvtxt and ./nvtxtc (read by the Makefile)

$(B)/.deps-ok:
	@mkdir -p $(B)
	@sh .ci/deps flex bison jansson
	@touch $@

$(B)/nvtxt.tab.c $(B)/nvtxt.tab.h &: grammar/nvtxt.y $(B)/.deps-ok
	$(BISON) -Wall -Werror --defines=$(B)/nvtxt.tab.h -o $(B)/nvtxt.tab.c grammar/nvtxt.y

$(B)/nvtxt.lex.c $(B)/nvtxt.lex.h &: grammar/nvtxt.l $(B)/.deps-ok
	$(FLEX) --header-file=$(B)/nvtxt.lex.h -o $(B)/nvtxt.lex.c grammar/nvtxt.l

# flex's generated scanner compares signed and unsigned sizes and has unused helpers.
$(B)/nvtxt.lex.o: override CFLAGS += -Wno-sign-compare -Wno-unused-function -DYY_BUF_SIZE=262144

$(B)/%.o: $(B)/%.c
	$(CC) $(WARNINGS) $(CPPFLAGS) $(OBJ_FLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(B)/%.o: src/%.c $(B)/nvtxt.tab.h $(B)/nvtxt.lex.h
	@mkdir -p $(dir $@)
	$(CC) $(WARNINGS) $(CPPFLAGS) $(OBJ_FLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(B)/nvtxt.lex.o: $(B)/nvtxt.tab.h
$(B)/nvtxt.tab.o: $(B)/nvtxt.lex.h

# libnvtxt (libnvtxt(3)).  Every object is position-independent, so one
# set makes the binary, the shared library and the static one.  What the
# library exports is every function declared in include/nvtxt/*.h
# ($(B)/libnvtxt.exports, all named nvtxt_*); the rest is internal:
#   libnvtxt-internal.a  every object as it is, for the driver and the tests
#   libnvtxt.so.0        soname libnvtxt.so.0, exports through a version script
#   libnvtxt.a           one relocatable object whose other globals are made
#                        local (ld -r, objcopy), so a static user's xmalloc
#                        or buf_add never clashes with the library's
OBJ_FLAGS = -fPIC -fno-semantic-interposition
PUBLIC_HEADERS = $(sort $(wildcard include/nvtxt/*.h))
LIB_DEPLIBS = $(if $(NVTX_CPPFLAGS),-ldl) -pthread -ljansson -lm
LIB_SONAME = libnvtxt.so.0
LIB_VERSION ?= 0.1

$(B)/libnvtxt.exports: $(PUBLIC_HEADERS)
	@mkdir -p $(B)
	sed -n 's/^[A-Za-z].*[ *]\(nvtxt_[a-z0-9_]*\)(.*/\1/p' $(PUBLIC_HEADERS) | sort -u > $@

$(B)/libnvtxt.map: $(B)/libnvtxt.exports
	{ echo 'NVTXT_0 {'; echo 'global:'; sed 's/.*/  &;/' $<; echo 'local:'; echo '  *;'; echo '};'; } > $@

$(B)/libnvtxt-internal.a: $(LIB_OBJS)
	rm -f $@
	ar rcs $@ $(LIB_OBJS)

$(B)/$(LIB_SONAME): $(LIB_OBJS) $(B)/libnvtxt.map
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(LIB_SONAME) -Wl,--version-script=$(B)/libnvtxt.map \
		-Wl,-z,defs -o $@ $(LIB_OBJS) $(LIB_DEPLIBS)

$(B)/libnvtxt.so: $(B)/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $@

$(B)/libnvtxt.a: $(LIB_OBJS) $(B)/libnvtxt.exports
	rm -f $@ $(B)/libnvtxt.o
	$(LD) -r -o $(B)/libnvtxt.o $(LIB_OBJS)
	$(OBJCOPY) --keep-global-symbols=$(B)/libnvtxt.exports $(B)/libnvtxt.o
	ar rcs $@ $(B)/libnvtxt.o

# nvtxt.pc for PREFIX (make install writes it again for its own PREFIX)
PC_SED = sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	-e 's|@VERSION@|$(LIB_VERSION)|' -e 's|@LIBS_PRIVATE@|$(LIB_DEPLIBS)|' nvtxt.pc.in
$(B)/nvtxt.pc: nvtxt.pc.in Makefile mk/build.mk
	$(PC_SED) > $@

LIBS = $(B)/libnvtxt.a $(B)/$(LIB_SONAME) $(B)/libnvtxt.so $(B)/nvtxt.pc
libs: $(LIBS)

# without the NVTX headers, one line says what is left out and how to get it
NVTX_NOTE = nvtxtc: NVTX v3 headers not found (no $(NVTX_INC)/nvtx3/nvToolsExtPayload.h): 'nvtxtc replay' \
	is left out; to build it, make NVTX_INC=DIR or ./configure --with-nvtx=DIR, DIR holding the CUDA toolkit's nvtx3/
$(BIN): $(DRIVER_OBJS) $(B)/libnvtxt-internal.a
	$(if $(NVTX_CPPFLAGS),,@echo "$(NVTX_NOTE)" >&2)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(DRIVER_OBJS) $(B)/libnvtxt-internal.a $(LDLIBS)

.PHONY: libs
