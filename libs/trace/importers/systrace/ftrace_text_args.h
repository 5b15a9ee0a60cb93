#pragma once
// The "key=value key=value" part of an ftrace text line, as most kernel events print it.
//
// Values run up to the next " key=" rather than the next space, because thread names may
// contain spaces ("prev_comm=Signal Catcher prev_pid=..."); sched_switch's "==>" separates
// the prev and next halves. Text before the first key (free-form events such as
// "workqueue_execute_start: work struct ...") is kept whole under the key "buf".

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace tw {

class FtraceTextArgs {
 public:
  explicit FtraceTextArgs(std::string_view text);

  // In the order they appear; a repeated key appears twice.
  const std::vector<std::pair<std::string_view, std::string_view>>& pairs() const { return pairs_; }
  // The first value of `key`.
  std::optional<std::string_view> Find(std::string_view key) const;
  // Decimal (optionally negative); nullopt when absent or not a number that fits.
  std::optional<int64_t> FindInt(std::string_view key) const;
  // Decimal, or hexadecimal with `hex` (with or without "0x").
  std::optional<uint64_t> FindUint(std::string_view key, bool hex = false) const;

 private:
  std::vector<std::pair<std::string_view, std::string_view>> pairs_;
};

// Number parsing shared with the event decoder: the whole text must be the number.
std::optional<int64_t> ParseTextInt(std::string_view s);
std::optional<uint64_t> ParseTextUint(std::string_view s, bool hex);

}  // namespace tw
