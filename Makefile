# nvtxtc - a compiler-style toolchain for NVTXT.
#
#   make            build ./nvtxtc (installs flex and bison when missing and root)
#   make check      the TAP suite, through prove (installs what the tests use
#                   when missing; OFFLINE=1: installs nothing, and their tests skip)
#   make demo       lint and canonical output of every file in examples/
#   make install    PREFIX=/usr/local DESTDIR=  (the binary, libnvtxt with its headers and
#                   nvtxt.pc, the manual pages, bash completion, the editor files)
#
# ./configure (from configure.ac) may write config.mk with the same variables.

-include config.mk

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
OBJCOPY ?= objcopy
# editor files (nvtxtc(1), EDITORS): Vim's and Neovim's runtime folders, Emacs's
# site-lisp (nvtxt-mode.el), the TextMate grammar
VIMDIR ?= $(PREFIX)/share/vim/vimfiles
NVIMDIR ?= $(PREFIX)/share/nvim/site
LISPDIR ?= $(PREFIX)/share/emacs/site-lisp
DATADIR ?= $(PREFIX)/share/nvtxtc
# where bash-completion looks for completions under PREFIX
BASH_COMPLETIONSDIR ?= $(or $(shell pkg-config --define-variable=prefix=$(PREFIX) \
	--variable=completionsdir bash-completion 2>/dev/null),$(PREFIX)/share/bash-completion/completions)
CC ?= cc
CFLAGS ?= -O2 -g
WARNINGS = -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra
# The pipeline, one folder a stage (README, "Layout"): every header is
# included by its bare name, so each folder is on the include path.
SRC_DIRS = util lang diag frontend passes backends pipeline
CPPFLAGS += $(SRC_DIRS:%=-Isrc/%) -Isrc/payload -Isrc/driver -I$(B)
# the public headers (include/nvtxt/, installed); no two headers share a
# name (tests/arrows.t), so the order of the folders decides nothing
CPPFLAGS += -Iinclude/nvtxt -Iinclude
FLEX ?= flex
BISON ?= bison
PROVE ?= prove

B = build
BIN = nvtxtc
SAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

LIB_SRCS = $(sort $(foreach d,$(SRC_DIRS),$(wildcard src/$(d)/*.c)))
DRIVER_SRCS = $(sort $(wildcard src/driver/*.c))
DRIVER_OBJS = $(DRIVER_SRCS:src/%.c=$(B)/%.o)
# lsp: the language server (src/lsp/, nvtxtc lsp) is part of the binary, not
# of the library; it uses jansson, as the JSON diagnostics do (LDLIBS below).
LSP_SRCS = $(sort $(wildcard src/lsp/*.c))
DRIVER_OBJS += $(LSP_SRCS:src/%.c=$(B)/%.o)
CPPFLAGS += -Isrc/lsp
UNIT_SRCS = $(filter-out tests/unit/payload.c,$(wildcard tests/unit/*.c))
# payload: begin
# The payload back end (nvtxt-payload(5)).  The NVTX v3 headers enable the
# compile-time checks of its constants and `nvtxtc replay`; ./configure may
# set NVTX_CPPFLAGS, otherwise the CUDA toolkit's include directory is tried.
NVTX_INC ?= /usr/local/cuda/include
NVTX_CPPFLAGS ?= $(if $(wildcard $(NVTX_INC)/nvtx3/nvToolsExtPayload.h),-I$(NVTX_INC) -DNVTXTC_HAVE_NVTX)
PAYLOAD_SRCS = $(filter-out src/payload/replay.c,$(wildcard src/payload/*.c)) \
	$(if $(NVTX_CPPFLAGS),src/payload/replay.c)
LIB_SRCS += $(PAYLOAD_SRCS)
CPPFLAGS += $(NVTX_CPPFLAGS)
LDLIBS += $(if $(NVTX_CPPFLAGS),-ldl) -pthread
# JSON and SARIF diagnostics (src/diag/diag_json.c, diag_sarif.c) and the tests' JSON
# parsing: Debian's libjansson-dev.  --emit=chrome writes its own bytes (src/backends/trace_writer.c).
# -lm: sqrtl, for the standard deviations of nvtxtc stats (src/backends/stats.c).
LDLIBS += -ljansson -lm
UNIT_SRCS += tests/unit/payload.c
RECORDER = $(B)/tests/inject/recorder.so
CHECK_DEPS = $(if $(NVTX_CPPFLAGS),$(RECORDER))
# payload: end
GEN_OBJS = $(B)/nvtxt.tab.o $(B)/nvtxt.lex.o
LIB_OBJS = $(LIB_SRCS:src/%.c=$(B)/%.o) $(GEN_OBJS)
UNIT_TESTS = $(patsubst tests/unit/%.c,$(B)/tests/unit/%.t,$(UNIT_SRCS))

all: $(BIN) libs

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
$(B)/nvtxt.pc: nvtxt.pc.in Makefile
	$(PC_SED) > $@

LIBS = $(B)/libnvtxt.a $(B)/$(LIB_SONAME) $(B)/libnvtxt.so $(B)/nvtxt.pc
libs: $(LIBS)

# without the NVTX headers, one line says what is left out and how to get it
NVTX_NOTE = nvtxtc: NVTX v3 headers not found (no $(NVTX_INC)/nvtx3/nvToolsExtPayload.h): 'nvtxtc replay' \
	is left out; to build it, make NVTX_INC=DIR or ./configure --with-nvtx=DIR, DIR holding the CUDA toolkit's nvtx3/
$(BIN): $(DRIVER_OBJS) $(B)/libnvtxt-internal.a
	$(if $(NVTX_CPPFLAGS),,@echo "$(NVTX_NOTE)" >&2)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(DRIVER_OBJS) $(B)/libnvtxt-internal.a $(LDLIBS)

$(B)/tests/unit/%.t: tests/unit/%.c $(wildcard tests/unit/*.h) tests/fuzz/fuzz_common.h $(B)/libnvtxt-internal.a
	@mkdir -p $(B)/tests/unit
	$(CC) $(WARNINGS) $(CPPFLAGS) -Itests/unit $(CFLAGS) $(LDFLAGS) -o $@ $< $(B)/libnvtxt-internal.a $(LDLIBS)

# argtable: the argument table against lint and the language server's hover, in process
LSP_OBJS = $(LSP_SRCS:src/%.c=$(B)/%.o)
$(B)/tests/unit/argtable.t: tests/unit/argtable.c tests/unit/tap.h $(LSP_OBJS) $(B)/libnvtxt-internal.a
	@mkdir -p $(B)/tests/unit
	$(CC) $(WARNINGS) $(CPPFLAGS) -Itests/unit $(CFLAGS) $(LDFLAGS) -o $@ $< $(LSP_OBJS) $(B)/libnvtxt-internal.a $(LDLIBS)

# payload: begin (the NVTX injection library that `make check` replays into)
$(RECORDER): tests/inject/recorder.c
	@mkdir -p $(B)/tests/inject
	$(CC) $(WARNINGS) $(NVTX_CPPFLAGS) $(CFLAGS) -fPIC -shared -o $@ tests/inject/recorder.c
# payload: end

# chrome: test helpers linked with the library (tests/tools/*.c), found by tests through TOOLS
TEST_TOOLS = $(patsubst tests/tools/%.c,$(B)/tests/tools/%,$(wildcard tests/tools/*.c))
$(B)/tests/tools/%: tests/tools/%.c $(B)/libnvtxt-internal.a
	@mkdir -p $(B)/tests/tools
	$(CC) $(WARNINGS) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(B)/libnvtxt-internal.a $(LDLIBS) -lm

# The fault-injection library of tests/outputs.t (LD_PRELOAD).
FAULTS = $(B)/tests/inject/faults.so
$(FAULTS): tests/inject/faults.c
	@mkdir -p $(B)/tests/inject
	$(CC) $(WARNINGS) $(CFLAGS) -fPIC -shared -o $@ tests/inject/faults.c -ldl

# What the tests use, by the names of .ci/deps (which has the Debian package
# of each): make check installs what is missing (as root; otherwise it says
# what to run), then `npm ci` when node_modules/ is missing or older than
# package-lock.json.  `make check OFFLINE=1` installs nothing, and a test
# whose tool is missing skips instead of failing (NVTXTC_OFFLINE=1, read by
# tests/lib.sh's need).
CHECK_TOOLS = prove pkg-config mandoc man valgrind setfattr getfattr setfacl getfacl setpriv \
	objdump nm readelf iconv bash nvim emacs eglot node npm chromium node_modules unzip python3
ifneq ($(OFFLINE),)
export NVTXTC_OFFLINE = 1
endif

check: $(BIN) $(LIBS) $(UNIT_TESTS) $(CHECK_DEPS) $(TEST_TOOLS) $(FAULTS) $(B)/bench/gen
	@sh .ci/deps --tests $(CHECK_TOOLS)
	NVTXTC=$(BIN) TOOLS=$(abspath $(B)/tests/tools) GEN=$(abspath $(B)/bench/gen) RECORDER=$(abspath $(RECORDER)) FAULTS=$(abspath $(FAULTS)) $(PROVE) --exec '' $(UNIT_TESTS) tests/*.t tests/payload-goldens/run.t

# The whole suite again under AddressSanitizer and UndefinedBehaviorSanitizer.
check-sanitize:
	$(MAKE) B=build/san BIN=build/san/nvtxtc CFLAGS='$(SAN_FLAGS)' LDFLAGS='$(SAN_FLAGS)' check

# fuzz: begin
# libFuzzer targets (tests/fuzz/, clang with -fsanitize=fuzzer,address,undefined):
# `make fuzz FUZZ_SECONDS=N` builds them into $(B)/fuzz/ (the library compiled
# again with the fuzzer's instrumentation) and runs each for N seconds on the
# seeds of tests/fuzz/corpus/TARGET/; new inputs go to $(B)/fuzz/corpus/TARGET/
# and crashes to $(B)/fuzz/TARGET-crash-*.  Needs clang and libclang-rt-14-dev
# (libFuzzer) or the like.
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
FUZZ_B = $(B)/fuzz
FUZZ_TARGETS = frontend fmt payload fast_paths lsp chrome report chrome_strings
FUZZ_FLAGS = -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_RUN_FLAGS = -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
FUZZ_LIB_OBJS = $(LIB_SRCS:src/%.c=$(FUZZ_B)/obj/%.o) $(FUZZ_B)/obj/nvtxt.tab.o $(FUZZ_B)/obj/nvtxt.lex.o
FUZZ_BINS = $(FUZZ_TARGETS:%=$(FUZZ_B)/fuzz_%)

$(FUZZ_B)/obj/%.o: src/%.c $(B)/nvtxt.tab.h $(B)/nvtxt.lex.h | $(FUZZ_B)/.deps-ok
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WARNINGS) $(CPPFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(FUZZ_B)/obj/%.o: $(B)/%.c $(B)/nvtxt.tab.h $(B)/nvtxt.lex.h | $(FUZZ_B)/.deps-ok
	@mkdir -p $(FUZZ_B)/obj
	$(FUZZ_CC) $(WARNINGS) -Wno-sign-compare -Wno-unused-function $(CPPFLAGS) $(FUZZ_FLAGS) \
		-fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(FUZZ_B)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_common.h $(FUZZ_LIB_OBJS)
	$(FUZZ_CC) -std=c11 -Wall -Wextra $(CPPFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer \
		-o $@ $< $(FUZZ_LIB_OBJS) $(LDLIBS)

# the language server's target links the server too
FUZZ_LSP_OBJS = $(LSP_SRCS:src/%.c=$(FUZZ_B)/obj/%.o)
$(FUZZ_B)/fuzz_lsp: tests/fuzz/fuzz_lsp.c tests/fuzz/fuzz_common.h $(FUZZ_LIB_OBJS) $(FUZZ_LSP_OBJS)
	$(FUZZ_CC) -std=c11 -Wall -Wextra $(CPPFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer \
		-o $@ $< $(FUZZ_LSP_OBJS) $(FUZZ_LIB_OBJS) $(LDLIBS)

$(FUZZ_B)/.deps-ok:
	@mkdir -p $(FUZZ_B)
	@sh .ci/deps clang libfuzzer
	@touch $@

fuzz-build: $(FUZZ_BINS)

# FUZZ_SECONDS=0 only runs the seeds and tests/fuzz/crashes-found/TARGET/ once.
fuzz: $(FUZZ_BINS)
	@st=0; for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_B)/corpus/$$t || exit 1; \
		case $$t in payload|chrome_strings) dict= ;; lsp) dict=-dict=tests/fuzz/lsp.dict ;; *) dict=-dict=tests/fuzz/nvtxt.dict ;; esac; \
		seeds=tests/fuzz/corpus/$$t; case $$t in fast_paths|chrome|report) seeds=tests/fuzz/corpus/frontend ;; esac; \
		found=; [ -d tests/fuzz/crashes-found/$$t ] && found=tests/fuzz/crashes-found/$$t; \
		echo "== fuzz_$$t for $(FUZZ_SECONDS) s"; \
		$(FUZZ_B)/fuzz_$$t $(FUZZ_RUN_FLAGS) $$dict \
			$(if $(filter 0,$(FUZZ_SECONDS)),-runs=0,-max_total_time=$(FUZZ_SECONDS)) \
			-artifact_prefix=$(FUZZ_B)/$$t- $(FUZZ_B)/corpus/$$t $$seeds $$found \
			2>$(FUZZ_B)/$$t.log || { tail -n 60 $(FUZZ_B)/$$t.log; st=1; }; \
		grep -E '^(#[0-9]+.*(DONE|INITED)|stat::number_of_executed_units|stat::peak_rss_mb)' $(FUZZ_B)/$$t.log || true; \
	done; exit $$st

.PHONY: fuzz fuzz-build
.SECONDARY: $(FUZZ_LIB_OBJS) $(FUZZ_LSP_OBJS)
-include $(wildcard $(FUZZ_B)/obj/*.d $(FUZZ_B)/obj/*/*.d)
# fuzz: end

demo: nvtxtc $(CHECK_DEPS)
	@for f in examples/*.nvtxt; do \
		echo "== nvtxtc lint $$f"; ./nvtxtc lint $$f || exit 1; \
		echo "== nvtxtc --emit=nvtxt $$f (first lines)"; \
		./nvtxtc --emit=nvtxt $$f > $(B)/demo.out || exit 1; head -n 5 $(B)/demo.out; \
	done
	@for f in examples/*.nvtxt; do \
		echo "== nvtxtc --emit=payload $$f; nvtxtc dump (first lines)"; \
		./nvtxtc --emit=payload -o $(B)/demo.payload $$f 2>/dev/null || exit 1; \
		echo "   $$(wc -c < $$f) bytes of NVTXT -> $$(wc -c < $(B)/demo.payload) bytes of payload"; \
		./nvtxtc dump $(B)/demo.payload | head -n 3; \
		$(if $(NVTX_CPPFLAGS),echo "== nvtxtc replay under $(RECORDER)"; \
		NVTX_INJECTION64_PATH=$$PWD/$(RECORDER) NVTXT_RECORDER_OUT=$(B)/demo.rec \
			./nvtxtc replay $(B)/demo.payload || exit 1; \
		./nvtxtc --emit=nvtxt $$f 2>/dev/null | cmp -s - $(B)/demo.rec || exit 1; \
		echo "   the tool received the normal form of $$f";) \
	done
	@echo "demo: every example lints clean and has a normal form"

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

clean:
	rm -rf $(B) nvtxtc

.PHONY: all libs check check-sanitize demo install uninstall clean

# vsix: the VS Code extension (editors/vscode: language, the TextMate grammar,
# a vscode-languageclient client of `nvtxtc lsp`, settings) packaged by
# @vscode/vsce from npm (npm ci at the top first) as build/nvtxt-vscode.vsix;
# install it with `code --install-extension build/nvtxt-vscode.vsix`.
vsix: $(B)/nvtxt-vscode.vsix
$(B)/nvtxt-vscode.vsix: $(wildcard editors/vscode/*) editors/textmate/nvtxt.tmLanguage.json
	sh editors/vscode/build.sh $(B)/vscode $@

.PHONY: vsix
# bench: begin
# make bench: the benchmark of issue 5 (not part of make check; see
# bench/README.md).  BENCH_DIR, BENCH_KEEP, BENCH_SIZES, BENCH_RUNS pass through.
$(B)/bench/gen: bench/gen.c
	@mkdir -p $(B)/bench
	$(CC) -std=c11 -Wall -Wextra -O2 -o $@ bench/gen.c

# what one event costs each JSON library (bench/json_cost.c; bench/README.md, issue 14);
# json-c is used by nothing else (Debian's libjson-c-dev, installed here when missing)
$(B)/bench/json_cost_jansson: bench/json_cost.c src/backends/timeconv.h
	@mkdir -p $(B)/bench
	$(CC) -std=c11 -Wall -Wextra -O2 -Isrc/backends -Iinclude/nvtxt -o $@ bench/json_cost.c -ljansson
$(B)/bench/json_cost_jsonc: bench/json_cost.c src/backends/timeconv.h
	@mkdir -p $(B)/bench
	@sh .ci/deps json-c
	$(CC) -std=c11 -Wall -Wextra -O2 -DJSON_COST_JSONC -Isrc/backends -Iinclude/nvtxt -o $@ bench/json_cost.c -ljson-c

bench: $(BIN) $(B)/bench/gen
	NVTXTC=./$(BIN) GEN=$(B)/bench/gen sh bench/run.sh

.PHONY: bench
# bench: end

-include $(wildcard $(B)/*.d $(B)/*/*.d)
