#include "libs/trace/query/slice_stack_table.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "libs/trace/query/fnv1a.h"

namespace tw {
namespace {

// Walks every slice once, parents before children. A parent keeps the text of its chain
// ("<root's frame>|...|<its frame>") only until its last child has used it, so memory follows
// the open nesting, not the size of the trace.
class StackWalk {
 public:
  explicit StackWalk(const TraceStorage& storage)
      : slices_(storage.slice), strings_(storage.strings()), n_(slices_.row_count()),
        state_(n_, kPending), stack_id_(n_, 0), children_left_(n_, 0) {
    for (uint32_t row = 0; row < n_; ++row) {
      const std::optional<uint32_t> parent = slices_.parent_id.Get(row);
      if (parent && *parent < n_) ++children_left_[*parent];
    }
  }

  void WriteTo(SliceStackTable* out) {
    for (uint32_t row = 0; row < n_; ++row) Resolve(row);
    for (uint32_t row = 0; row < n_; ++row) {
      SliceStackTable::Row r;
      if (state_[row] == kDone) {
        r.stack_id = stack_id_[row];
        const std::optional<uint32_t> parent = slices_.parent_id.Get(row);
        r.parent_stack_id = parent ? stack_id_[*parent] : 0;
      }
      out->Insert(r);
    }
  }

 private:
  enum State : uint8_t { kPending, kInProgress, kDone, kUnreachable };

  // The decimal text of HASH(category || '|' || name), once per distinct pair.
  const std::string& Frame(uint32_t row) {
    const StringId category = slices_.category[row];
    const StringId name = slices_.name[row];
    auto [it, inserted] = frames_.try_emplace(std::make_pair(category, name));
    if (inserted) {
      std::string text(category == kNullStringId ? "" : strings_.Get(category));
      text += '|';
      text += name == kNullStringId ? "" : strings_.Get(name);
      it->second = absl::StrCat(Fnv1a64::Of(text));
    }
    return it->second;
  }

  // Resolves `row` and, first, every pending ancestor (a parent normally has the smaller id,
  // but nothing here relies on it). A chain that loops or points outside the table never
  // reaches a root, so, as in a walk from the roots down, its slices get no stack id.
  void Resolve(uint32_t row) {
    pending_.clear();
    uint32_t at = row;
    while (state_[at] == kPending) {
      state_[at] = kInProgress;
      pending_.push_back(at);
      const std::optional<uint32_t> parent = slices_.parent_id.Get(at);
      if (!parent) break;
      if (*parent >= n_ || state_[*parent] == kInProgress) {
        for (uint32_t p : pending_) state_[p] = kUnreachable;
        return;
      }
      at = *parent;
    }
    for (auto it = pending_.rbegin(); it != pending_.rend(); ++it) Compute(*it);
  }

  void Compute(uint32_t row) {
    const std::optional<uint32_t> parent = slices_.parent_id.Get(row);
    if (parent && state_[*parent] != kDone) {
      state_[row] = kUnreachable;
      return;
    }
    const std::string& frame = Frame(row);
    if (!parent) {
      stack_id_[row] = Fnv1a64::Of(frame);
      if (children_left_[row] > 0) chains_[row] = frame;
    } else {
      // Read the parent's chain before inserting this slice's: an insert may move the map.
      auto above = chains_.find(*parent);
      stack_id_[row] = Fnv1a64::Of(absl::StrCat(frame, "|", above->second));
      std::string chain;
      if (children_left_[row] > 0) chain = absl::StrCat(above->second, "|", frame);
      if (--children_left_[*parent] == 0) chains_.erase(above);
      if (children_left_[row] > 0) chains_.emplace(row, std::move(chain));
    }
    state_[row] = kDone;
  }

  const SliceTable& slices_;
  const StringPool& strings_;
  const uint32_t n_;
  std::vector<State> state_;
  std::vector<int64_t> stack_id_;
  std::vector<uint32_t> children_left_;
  absl::flat_hash_map<uint32_t, std::string> chains_;  // of slices whose children need them
  absl::flat_hash_map<std::pair<StringId, StringId>, std::string> frames_;
  std::vector<uint32_t> pending_;
};

}  // namespace

void FillSliceStack(const TraceStorage& storage, SliceStackTable* out) {
  StackWalk(storage).WriteTo(out);
}

}  // namespace tw
