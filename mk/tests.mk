# tests: the unit tests, the test tools, the injection libraries, make check
# and make check-sanitize (read by the Makefile)

$(B)/tests/unit/%.t: tests/unit/%.c $(wildcard tests/unit/*.h) tests/fuzz/fuzz_common.h $(B)/libnvtxt-internal.a
	@mkdir -p $(B)/tests/unit
	$(CC) $(WARNINGS) $(CPPFLAGS) -Itests/unit $(CFLAGS) $(LDFLAGS) -o $@ $< $(B)/libnvtxt-internal.a $(LDLIBS)

# lsp_incr: the language server's incremental check against a check from the top
$(B)/tests/unit/lsp_incr.t: tests/unit/lsp_incr.c tests/unit/tap.h tests/unit/lsp_edits.h $(LSP_OBJS) $(B)/libnvtxt-internal.a
	@mkdir -p $(B)/tests/unit
	$(CC) $(WARNINGS) $(CPPFLAGS) -Itests/unit $(CFLAGS) $(LDFLAGS) -o $@ $< $(LSP_OBJS) $(B)/libnvtxt-internal.a $(LDLIBS)

# lsp_tokens: semantic tokens and the index after edits against a fresh document's
$(B)/tests/unit/lsp_tokens.t: tests/unit/lsp_tokens.c tests/unit/tap.h tests/unit/lsp_edits.h $(LSP_OBJS) $(B)/libnvtxt-internal.a
	@mkdir -p $(B)/tests/unit
	$(CC) $(WARNINGS) $(CPPFLAGS) -Itests/unit $(CFLAGS) $(LDFLAGS) -o $@ $< $(LSP_OBJS) $(B)/libnvtxt-internal.a $(LDLIBS)

# argtable: the argument table against lint and the language server's hover, in process
$(B)/tests/unit/argtable.t: tests/unit/argtable.c tests/unit/tap.h $(LSP_OBJS) $(B)/libnvtxt-internal.a
	@mkdir -p $(B)/tests/unit
	$(CC) $(WARNINGS) $(CPPFLAGS) -Itests/unit $(CFLAGS) $(LDFLAGS) -o $@ $< $(LSP_OBJS) $(B)/libnvtxt-internal.a $(LDLIBS)

# emit_nvtxt_words: the same test of the normal form printer built without
# GCC's vectors (EMIT_NO_VECTORS), the portable way other compilers take
UNIT_TESTS += $(B)/tests/unit/emit_nvtxt_words.t
$(B)/tests/unit/emit_nvtxt_words.t: tests/unit/emit_nvtxt.c tests/unit/tap.h src/backends/emit_nvtxt.c $(B)/libnvtxt-internal.a
	@mkdir -p $(B)/tests/unit
	$(CC) $(WARNINGS) $(CPPFLAGS) -Itests/unit -DEMIT_NO_VECTORS $(CFLAGS) $(LDFLAGS) -o $@ tests/unit/emit_nvtxt.c src/backends/emit_nvtxt.c $(B)/libnvtxt-internal.a $(LDLIBS)

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

# $(B)/bench/gen: mk/bench.mk
check: $(BIN) $(LIBS) $(UNIT_TESTS) $(CHECK_DEPS) $(TEST_TOOLS) $(FAULTS) $(B)/bench/gen
	@sh .ci/deps --tests $(CHECK_TOOLS)
	NVTXTC=$(BIN) TOOLS=$(abspath $(B)/tests/tools) GEN=$(abspath $(B)/bench/gen) RECORDER=$(abspath $(RECORDER)) FAULTS=$(abspath $(FAULTS)) $(PROVE) --exec '' $(UNIT_TESTS) tests/*.t tests/payload-goldens/run.t

# The whole suite again under AddressSanitizer and UndefinedBehaviorSanitizer.
check-sanitize:
	$(MAKE) B=build/san BIN=build/san/nvtxtc CFLAGS='$(SAN_FLAGS)' LDFLAGS='$(SAN_FLAGS)' check

.PHONY: check check-sanitize
