# fuzz: the libFuzzer targets, make fuzz-build and make fuzz (read by the Makefile)

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
