/*
 * fast_line_body.h - the fast path's parser, included by fast_line.c once
 * per scanning level with SCAN(name) giving the level's names
 * (name_portable, name_sse2, name_avx2) and SCAN_FN its storage class and
 * target.  The steps id_end, digits_end and quote_stop of the level do the
 * wide scanning; everything else is the same code at every level.
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
			uint64_t u = digits_value(digits, ndigits);
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

SCAN_FN char *SCAN(fast_line_parse)(char *line_start, const char *end_of_data, struct line_rec *rec,
				    struct fast_value *values)
{
	unsigned char *const line = (unsigned char *)line_start;
	const unsigned char *const end = (const unsigned char *)end_of_data;
	unsigned char *p = line, *name, *nl;
	size_t n = 0;
	bool assignment;

	/* <INITIAL>{ID}, then <AFTER_NAME>"=" or "," */
	while (is_blank(*p))
		p++;
	if (!is(*p, K_ID_START))
		return NULL;
	name = p;
	p = (unsigned char *)SCAN(id_end)(p + 1);
	rec->name_len = (uint16_t)(p - name);
	while (is_blank(*p))
		p++;
	if (*p != ',' && *p != '=')
		return NULL;
	assignment = *p == '=';

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
	rec->continues = false;
	rec->text_len = (uint16_t)(p - line);
	rec->nvalues = (uint16_t)n;
	rec->name_col = (uint16_t)(name - line);
	/* the end of the last token (an absent value's length is 0) */
	rec->end_col = (uint16_t)(values[n - 1].col + values[n - 1].len);
	return (char *)nl + 1;
}
