// Input response scenarios: taps on an idle app whose handlers are slow (the main thread
// inflates a detail view for a fifth of a second) or fast (the clean twin).
#include "absl/strings/str_cat.h"
#include "tools/tracegen/scenario_kit.h"

namespace tw::tracegen {
namespace {

void Taps(AndroidWorld& w, int64_t handler_work, bool slow) {
  const int32_t app = AndroidWorld::kAppPid;
  const std::string slice = "DetailFragment.onCreateView";
  int64_t t = w.start() + 200 * kMs;
  uint32_t seq = 1;
  while (t < w.end() - 700 * kMs) {
    for (const char* action : {"DOWN", "UP"}) {
      std::vector<Action> handling = {Action::Run(150'000)};
      if (std::string(action) == "UP") {
        handling.push_back(Action::Print(absl::StrCat("B|", app, "|FeedAdapter.onItemClick")));
        handling.push_back(Action::Print(absl::StrCat("B|", app, "|", slice)));
        handling.push_back(Action::Run(static_cast<int64_t>(handler_work * w.rng().Between(0.85, 1.15))));
        handling.push_back(Action::Print(absl::StrCat("E|", app)));
        handling.push_back(Action::Print(absl::StrCat("E|", app)));
        if (slow) ++w.truth().slow_input_events;
      }
      DeliverMotion(w, t, seq, 0x4b00 + seq, action, std::move(handling));
      ++seq;
      t += 90 * kMs;
    }
    t += static_cast<int64_t>(w.rng().Between(450e6, 650e6));
  }
  if (slow) w.truth().slow_input_slice = slice;
}

}  // namespace

void InputSlow(AndroidWorld& w, const Params& p, Scenario& s) {
  (void)s;
  w.truth().planted_causes = {"input_handling"};
  Taps(w, static_cast<int64_t>(220 * kMs * p.o.severity), true);
}

void InputFast(AndroidWorld& w, const Params& p, Scenario& s) {
  (void)p;
  (void)s;
  Taps(w, 3 * kMs, false);
}

}  // namespace tw::tracegen
