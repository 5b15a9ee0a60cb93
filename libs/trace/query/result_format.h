#pragma once
// Turns a QueryResult into text: the CSV of Perfetto's trace_processor diff tests (so our output
// can be compared with `expected.csv` byte for byte), an aligned table for people, and JSON for
// programs. Also the diff-test comparison itself.

#include <cstddef>
#include <string>
#include <string_view>

#include "libs/trace/query/sql_value.h"

namespace tw {

// trace_processor_shell's CSV, exactly: a header of double-quoted column names joined by ',',
// then one line per row. Strings are wrapped in double quotes WITHOUT escaping (an embedded '"'
// or newline is written as is, and a NUL ends the string, as printf("\"%s\"") does); integers
// are bare; NULL is "[NULL]" with the quotes; doubles are printf("%f") ("1.000000",
// "-13.500000", "1327800000000.000000", "nan", "inf"). Every line ends with '\n'.
std::string FormatCsv(const QueryResult& result);

// What trace_processor's shell prints for a multi-statement query run with
// QueryOptions::every_output: each result set in `result.outputs` as FormatCsv, separated by one
// blank line; nothing when no statement had output.
std::string FormatCsvOutputs(const QueryResult& result);

// One cell as FormatCsv writes it.
std::string FormatCsvValue(const SqlValue& value);

// An aligned table for terminals: header, a '-' separator, one line per row, then "(N rows)"
// ("(1 row)", and ", truncated" when a limit cut the result). Numbers are right-aligned,
// strings left-aligned; control characters are shown escaped so a row stays on one line; cells
// wider than `max_col_width` characters (UTF-8 aware) are cut and end in "...".
std::string FormatTable(const QueryResult& result, size_t max_col_width = 60);

// {"columns":[...],"rows":[[...],...],"truncated":bool}. Integers are JSON numbers (exact; a
// reader that needs more than 2^53 must parse them as int64), doubles use the shortest text
// that round-trips, NaN and +-inf become null, strings are escaped (see JsonQuote).
std::string FormatJson(const QueryResult& result);

// `s` as a JSON string literal with its quotes: '"', '\\' and control characters escaped, valid
// UTF-8 passed through unchanged, each invalid byte replaced by U+FFFD so the output is always
// valid JSON.
std::string JsonQuote(std::string_view s);

// The diff-test comparison, as Perfetto's runner does it: both texts are split into lines,
// each line is stripped of surrounding whitespace (and '\r'), blank lines are dropped, and the
// remaining lines must be equal one for one. Values are compared as text, so doubles must be
// formatted identically (FormatCsv does). On mismatch, and if `diff` is not null, writes a short
// report: a one-line summary first, then the first few differing lines.
bool CsvEquivalent(std::string_view expected, std::string_view actual, std::string* diff);

}  // namespace tw
