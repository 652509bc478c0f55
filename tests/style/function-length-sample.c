/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Not built: what build-aux/check-function-length must tell apart, checked with --max 5 by
 * test-function-length.sh. Only too_long (6 lines) is over that limit. */
#include <glib.h>

typedef struct
{
  int a;
  int b;
  int c;
  int d;
} Pair;

static const struct
{
  const char *name;
  int value;
} table[] = {
  { "one", 1 },
  { "two", 2 },
  { "three", 3 },
  { "four", 4 },
};

enum {
  A,
  B,
  C,
  D,
  E,
};

static int
too_long (int x)
{
  x++;
  x++;
  x++;
  return x;
}

static const char *
braces_in_text (void)
{
  /* { a comment with braces { */
  return "{ {";
}

#define MACRO(x) \
  { \
    x; \
    x; \
    x; \
  }

static int
right_at_the_limit (int x,
                    int y)
{
  x += y;
  x += y;
  return x;
}
