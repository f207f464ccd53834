# bench: make bench and its generators (read by the Makefile)

# make bench: the benchmark of issue 5 (not part of make check; see
# bench/README.md).  BENCH_DIR, BENCH_KEEP, BENCH_SIZES, BENCH_RUNS pass through.
$(B)/bench/gen: bench/gen.c
	@mkdir -p $(B)/bench
	$(CC) -std=c11 -Wall -Wextra -O2 -o $@ bench/gen.c

# what one event costs each JSON library (bench/json_cost.c; bench/README.md, issue 14);
# json-c is used by nothing else (Debian's libjson-c-dev, installed here when missing)
$(B)/bench/json_cost_jansson: bench/json_cost.c src/backends/timeconv.h src/util/decimal.h
	@mkdir -p $(B)/bench
	$(CC) -std=c11 -Wall -Wextra -O2 -Isrc/backends -Isrc/util -Iinclude -o $@ bench/json_cost.c -ljansson
$(B)/bench/json_cost_jsonc: bench/json_cost.c src/backends/timeconv.h src/util/decimal.h
	@mkdir -p $(B)/bench
	@sh .ci/deps json-c
	$(CC) -std=c11 -Wall -Wextra -O2 -DJSON_COST_JSONC -Isrc/backends -Isrc/util -Iinclude -o $@ bench/json_cost.c -ljson-c

bench: $(BIN) $(B)/bench/gen
	NVTXTC=./$(BIN) GEN=$(B)/bench/gen sh bench/run.sh

.PHONY: bench
