/*
 * fast_line_body.h - the fast path's parser, included by fast_line.c once
 * per scanning level with SCAN(name) giving the level's names
 * (name_portable, name_sse2, name_avx2), SCAN_FN its storage class and
 * target, and SCAN_WINDOW 1 when the level has a line window (SSE2 and
 * AVX2: classifying 64 bytes a byte at a time costs more than the token
 * steps, so the portable level goes without).  The steps id_end,
 * digits_end, quote_stop, digits_value and window of the level do the
 * wide work; everything else is the same code at every level.
 *
 * The rules each branch mirrors are quoted from grammar/nvtxt.l: flex
 * takes the longest match and, among equal lengths, the first rule.
 */

/*
 * Scans one value at p (blanks skipped) into v.  Returns the byte after
 * the token, or NULL when the scanner would report it or split it
 * differently.
 */
SCAN_FN inline unsigned char *SCAN(value)(unsigned char *p, const unsigned char *end,
					  const unsigned char *line, struct fast_value *v)
{
	unsigned char c = *p;
	const unsigned char *q;

	v->col = (uint16_t)(p - line);
	v->integer = 0;
	if (c == '"' || c == '\'') {
		/* \"{DQC}*\"  '{SQC}*' */
		unsigned k = c == '"' ? K_DQ : K_SQ;
		q = p + 1;
		for (;;) {
			q = SCAN(quote_stop)(q, c);
			if (*q == c)
				break;
			if (is(*q, k)) {
				q++; /* a control byte {DQC} allows */
			} else if (*q >= 0x80) {
				size_t n = utf8_seq(q, (size_t)(end - q));
				if (!n)
					return NULL;
				q += n;
			} else {
				return NULL; /* NUL or a line break inside the string */
			}
		}
		v->kind = NVTXT_V_STRING;
		v->quote = c;
		v->len = (uint16_t)(q + 1 - p);
		return (unsigned char *)q + 1;
	}
	if (c == '$') {
		/* "$"{ID} */
		if (!is(p[1], K_ID_START))
			return NULL;
		q = SCAN(id_end)(p + 2);
		v->kind = NVTXT_V_EXPANSION;
		v->quote = '$';
		v->len = (uint16_t)(q - p);
		return (unsigned char *)q;
	}
	if (is(c, K_DIGIT) || ((c == '-' || c == '+') && is(p[1], K_DIGIT))) {
		/*
		 * The common case first: [+-]?[0-9]+ of at most 18 digits (no
		 * overflow possible) that ends the bare-word run, that is, only
		 * blanks come before the next ',' or line break.
		 */
		const unsigned char *digits = p + !is(c, K_DIGIT), *r;
		size_t ndigits;

		q = SCAN(digits_end)(digits);
		ndigits = (size_t)(q - digits);
		for (r = q; is_blank(*r); r++)
			;
		if ((*r == ',' || *r == '\n' || *r == '\r') && ndigits <= 18) {
			uint64_t u = SCAN(digits_value)(digits, ndigits);
			v->kind = NVTXT_V_INTEGER;
			v->quote = 0;
			v->integer = c == '-' ? -(int64_t)u : (int64_t)u;
			v->len = (uint16_t)(q - p);
			return (unsigned char *)q;
		}
	}
	{
		/*
		 * ({BW1})({BWC}*{BW1})?: the longest run of bare-word bytes
		 * without its trailing blanks; an integer rule matching all of
		 * it wins the tie.
		 */
		unsigned char *w = p, *b = p;
		int r;

		for (;;) {
			if (is(*b, K_BARE)) {
				if (!is(*b++, K_BLANK))
					w = b;
			} else if (*b >= 0x80) {
				size_t n = utf8_seq(b, (size_t)(end - b));
				if (!n)
					return NULL;
				b += n;
				w = b;
			} else {
				break;
			}
		}
		if (w == p)
			return NULL;
		r = integer(p, w, &v->integer);
		if (r < 0)
			return NULL;
		v->kind = r ? NVTXT_V_INTEGER : NVTXT_V_STRING;
		v->quote = 0;
		v->len = (uint16_t)(w - p);
		return w;
	}
}

#if SCAN_WINDOW
/*
 * The values of a call line from a line window (fast_line.c) that starts
 * at the ',' after the name (`comma`, at column `col0` of the line), when
 * the line breaks with '\n' within the window and each value is an
 * integer of at most 18 digits without a sign, or a "..." string of bytes
 * 0x20..0x7F, with spaces around them (no tabs): most lines of a trace.
 * Instead of a step per byte or token it works on the window's bit masks
 * (bit i: comma[i]):
 *
 *   - the quotes pair up in order, the first of each pair opening a
 *     string: `inside`, the prefix XOR of the quotes, marks each string
 *     from its opening quote up to before its closing one;
 *   - the commas outside strings separate the values (`seps`), the line
 *     break ends the last one;
 *   - the tokens are the runs of bytes that are neither spaces outside
 *     strings nor separators (`token`); `starts` and `ends` mark the
 *     first and the last byte of each run.
 *
 * The line is taken when every quote starts or ends a run (so each string
 * is a run of its own, from its opening to its closing quote), every
 * byte of a run outside the strings is a digit, and each value has
 * exactly one run: in the order of the bytes, separators (the name's ','
 * first, the line break last) and starts of runs alternate, which the
 * prefix XOR of both tells in one go (each separator is the odd one of
 * its pair, each start the even one).  Then the runs are the scanner's
 * tokens, \"{DQC}*\" or an integer (the integer rule wins the tie with the
 * bare word), and the spaces around them are {BLANK}.  Fills what
 * fast_line_parse fills but name_col and name_len, and returns the byte
 * after the line break.  Returns NULL for any other line (an empty value,
 * a bare word, a sign, a tab, a '\r', UTF-8, ...), which the caller then
 * scans token by token: that way decides.
 */
SCAN_FN inline unsigned char *SCAN(window_values)(unsigned char *comma, unsigned col0,
						  const unsigned char *end, struct line_rec *rec,
						  struct fast_value *values)
{
	struct line_window w;
	uint64_t below_eol, quotes, inside, seps, token, starts, ends, marks;
	unsigned eol;
	struct fast_value *v = values;

	SCAN(window)(comma, &w);
	if (!w.stop)
		return NULL; /* no line break in the window */
	eol = (unsigned)__builtin_ctzll(w.stop);
	if (comma[eol] != '\n' || comma + eol == end)
		return NULL; /* another stop byte, or the chunk's sentinel: the line goes on past the data */
	below_eol = (1ULL << eol) - 1;

	/* the strings: the prefix XOR sets the bits from each opening quote up to before its closing one */
	quotes = w.quote & below_eol;
	inside = SCAN(prefix_xor)(quotes);
	if (inside & (1ULL << eol))
		return NULL; /* unterminated: the scanner reports it */

	/* the separators: the name's ',' (bit 0), the commas outside strings and the line break */
	seps = (w.comma & below_eol & ~inside) | (1ULL << eol);
	token = (~w.space | inside) & below_eol & ~seps;
	starts = token & ~(token << 1);
	ends = token & ~(token >> 1);
	if ((quotes & ~(starts | ends)) || (token & ~inside & ~quotes & ~w.digit))
		return NULL;
	/*
	 * One run per value: separators and starts alternate, a separator
	 * first and last, so the prefix XOR of both is 1 at each separator
	 * and 0 at each start (an empty value, or two runs in one, breaks it).
	 */
	marks = seps | starts;
	if ((SCAN(prefix_xor)(marks) & marks) != seps)
		return NULL;

	do {
		unsigned first = (unsigned)__builtin_ctzll(starts);
		unsigned len = (unsigned)__builtin_ctzll(ends) - first + 1;

		v->col = (uint16_t)(col0 + first);
		v->len = (uint16_t)len;
		if (quotes >> first & 1) {
			v->integer = 0;
			v->kind = NVTXT_V_STRING;
			v->quote = '"';
		} else {
			if (len > 18)
				return NULL;
			v->integer = (int64_t)SCAN(digits_value)(comma + first, len);
			v->kind = NVTXT_V_INTEGER;
			v->quote = 0;
		}
		v++;
		starts &= starts - 1;
		ends &= ends - 1;
	} while (starts);

	rec->kind = LINE_CALL;
	rec->text_len = (uint16_t)(col0 + eol);
	rec->nvalues = (uint16_t)(v - values);
	rec->end_col = (uint16_t)(v[-1].col + v[-1].len);
	return comma + eol + 1;
}
#endif

/*
 * One line at line_start (see fast_lines_fn in reader.h for the rest): fills
 * rec's fields but start, len and first_value, stores the values in
 * values[] (room for FRONTEND_MAX_VALUES) and returns the first byte after
 * the line break, or NULL for a line it does not take.
 */
SCAN_FN ALWAYS_INLINE char *SCAN(fast_line_parse)(char *line_start, const char *end_of_data,
						  struct line_rec *rec, struct fast_value *values)
{
	unsigned char *const line = (unsigned char *)line_start;
	const unsigned char *const end = (const unsigned char *)end_of_data;
	unsigned char *p = line, *name, *nl;
	size_t n = 0;
	bool assignment;

	/* <INITIAL>{ID}, then <AFTER_NAME>"=" or "," (blanks before either are rare: looked for after) */
	if (!is(*p, K_ID_START)) {
		while (is_blank(*p))
			p++;
		if (!is(*p, K_ID_START))
			return NULL;
	}
	name = p;
	p = (unsigned char *)SCAN(id_end)(p + 1);
	rec->name_len = (uint16_t)(p - name);
	if (*p != ',' && *p != '=') {
		while (is_blank(*p))
			p++;
		if (*p != ',' && *p != '=')
			return NULL;
	}
	assignment = *p == '=';
	rec->name_col = (uint16_t)(name - line);
#if SCAN_WINDOW
	if (!assignment) {
		/* the common call lines, from the line window; any other line goes on below */
		unsigned char *next = SCAN(window_values)(p, (unsigned)(p - line), end, rec, values);
		if (next)
			return (char *)next;
	}
#endif

	/* <VAL>: values separated by ',' up to {EOL} */
	for (;;) {
		struct fast_value *v;
		unsigned char *sep = p;

		p++;
		while (is_blank(*p))
			p++;
		if (n >= FRONTEND_MAX_VALUES)
			return NULL; /* the parser reports it */
		v = &values[n++];
		if (*p == ',' || at_eol(p)) {
			/* arg: %empty, located just after the ',' */
			if (assignment)
				return NULL;
			*v = (struct fast_value){ .col = (uint16_t)(sep + 1 - line), .kind = NVTXT_V_ABSENT };
		} else {
			p = SCAN(value)(p, end, line, v);
			if (!p)
				return NULL;
			while (is_blank(*p))
				p++;
		}
		if (*p == ',' && !assignment)
			continue;
		if (!at_eol(p))
			return NULL;
		break;
	}
	nl = *p == '\r' ? p + 1 : p;
	if (nl == end || p - line > FRONTEND_LINE_KEEP)
		return NULL; /* the line goes on past the data, or is long: the scanner keeps its excerpt */

	/* taken: the parts of the node the parser's actions would build */
	rec->kind = assignment ? LINE_ASSIGNMENT : LINE_CALL;
	rec->text_len = (uint16_t)(p - line);
	rec->nvalues = (uint16_t)n;
	/* the end of the last token (an absent value's length is 0) */
	rec->end_col = (uint16_t)(values[n - 1].col + values[n - 1].len);
	return (char *)nl + 1;
}

/*
 * The lines of chunk c from p on, while the fast path takes them and
 * there is room (reader.h, fast_lines_fn).  One loop over the lines, so
 * that the steps' constants stay in registers from one line to the next.
 */
SCAN_FN char *SCAN(fast_lines)(char *p, struct chunk *c)
{
	/* copies: the byte stores below could alias c's fields for the compiler */
	char *const bytes = c->bytes;
	const char *const end = bytes + c->len;
	struct line_rec *const lines = c->lines, *rec = lines + c->nlines;
	struct line_rec *const rec_end = lines + c->lines_cap;
	struct fast_value *const first_value = c->values, *values = first_value + c->nvalues;
	/* the room for one more line's values, FRONTEND_MAX_VALUES */
	struct fast_value *const values_last = first_value + (c->values_cap - FRONTEND_MAX_VALUES);

	while (p < end && rec < rec_end && values <= values_last) {
		char *next = SCAN(fast_line_parse)(p, end, rec, values);
		if (!next)
			break;
		rec->start = (uint32_t)(p - bytes);
		rec->len = (uint32_t)(next - p);
		rec->first_value = (uint32_t)(values - first_value);
		values += rec->nvalues;
		rec++;
		p = next;
	}
	c->nlines = (size_t)(rec - lines);
	c->nvalues = (size_t)(values - first_value);
	return p;
}
