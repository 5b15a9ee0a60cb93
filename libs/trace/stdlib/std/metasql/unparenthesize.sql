-- Turns a parenthesised list "(a, b)" into "a, b" inside macros.

CREATE PERFETTO MACRO _metasql_passthrough(x Expr) RETURNS Expr AS $x;

-- "(a, b, c)" -> "a, b, c", for GROUP BY / PARTITION BY lists given as one macro argument.
CREATE PERFETTO MACRO metasql_unparenthesize_exprlist(
  -- A parenthesised list of expressions.
  expr ExprList
)
-- The expressions without the parentheses.
RETURNS UnparenExprList
AS __intrinsic_token_apply!(_metasql_passthrough, $expr);
