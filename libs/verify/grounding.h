#pragma once
// Grounding: is a number a finding states present in the data it cites? A stated "9.2 ms" is
// grounded by a duration cell of 9,150,000–9,249,999 ns, by a plain cell of 9.2 (a column that
// is already in ms), or by a percentage/ratio the row itself gives; the tolerance is the rounding
// the writer used (half of the last written digit), so "31 ms" covers 30.5–31.5 ms.

#include <cstdint>
#include <optional>
#include <vector>

#include "libs/verify/analysis_record.h"
#include "libs/verify/stated_numbers.h"

namespace tw::verify {

// Where a number is grounded: the artifact (index into the list given), the row and column of
// the cell (row and column -1 when a query parameter grounds it; column -1 for a ratio of two
// cells of the row). Rows are searched before parameters, so a link points at data.
struct GroundingSite {
  size_t artifact = 0;
  int64_t row = -1;
  int column = -1;
};
std::optional<GroundingSite> LocateGrounding(const StatedNumber& number,
                                             const std::vector<const Artifact*>& artifacts);

// True when some cell or query parameter (or, for percentages, some ratio of two cells of one row) in `artifacts`
// matches `number`.
bool IsGrounded(const StatedNumber& number, const std::vector<const Artifact*>& artifacts);

// Numbers any analysis may state without citing them: refresh rates and their frame budgets,
// 100 %, the 5 s input ANR timeout.
bool IsWellKnownConstant(const StatedNumber& number);

}  // namespace tw::verify
