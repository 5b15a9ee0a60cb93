// std.metasql.unparenthesize: turns a parenthesised list "(a, b)" into "a, b" inside macros.
#include "libs/trace/stdlib/stdlib.h"

namespace tw::stdlib_modules {
extern const SqlModule kStdMetasqlUnparenthesize;
const SqlModule kStdMetasqlUnparenthesize = {"std.metasql.unparenthesize", R"sql(
CREATE PERFETTO MACRO _metasql_passthrough(x Expr) RETURNS Expr AS $x;

-- "(a, b, c)" -> "a, b, c", for GROUP BY / PARTITION BY lists given as one macro argument.
CREATE PERFETTO MACRO metasql_unparenthesize_exprlist(expr ExprList)
RETURNS UnparenExprList
AS __intrinsic_token_apply!(_metasql_passthrough, $expr);
)sql"};
}  // namespace tw::stdlib_modules
