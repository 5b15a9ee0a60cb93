#include "libs/agent/client_tools.h"

#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/agent/tool_support.h"
#include "libs/common/utf8.h"

namespace tw::agent {
namespace {

using nlohmann::json;

const json kInt = {{"type", "integer"}};

bool HasInt(const json& args, const char* key) {
  auto it = args.find(key);
  return it != args.end() && it->is_number_integer();
}

}  // namespace

const std::vector<std::string>& ClientToolNames() {
  static const std::vector<std::string> names = {"select_slice", "select_time_range",
                                                 "add_annotation", "capture_view"};
  return names;
}

bool IsClientTool(const std::string& name) {
  for (const std::string& n : ClientToolNames()) {
    if (n == name) return true;
  }
  return false;
}

absl::Status ValidateClientTools(const std::vector<std::string>& names) {
  for (size_t i = 0; i < names.size(); ++i) {
    if (!IsClientTool(names[i])) {
      return absl::InvalidArgumentError(absl::StrCat("unknown client tool '", names[i],
                                                     "' (known: ", absl::StrJoin(ClientToolNames(), ", "), ")"));
    }
    for (size_t j = 0; j < i; ++j) {
      if (names[j] == names[i]) {
        return absl::InvalidArgumentError(absl::StrCat("client tool '", names[i], "' is listed twice"));
      }
    }
  }
  return absl::OkStatus();
}

std::vector<ToolSpec> ClientToolSpecs(const std::vector<std::string>& offered) {
  std::vector<ToolSpec> specs;
  for (const std::string& name : ClientToolNames()) {
    bool listed = false;
    for (const std::string& o : offered) listed |= o == name;
    if (!listed) continue;
    if (name == "select_slice") {
      specs.push_back({name,
                       "Select a slice in the user's trace viewer, to show them the evidence you are "
                       "talking about. Use a slice id from the slice table.",
                       ObjectSchema({{"slice_id", kInt}}, {"slice_id"})});
    } else if (name == "select_time_range") {
      specs.push_back({name,
                       "Select a time range (trace timestamps in ns) in the user's trace viewer, to "
                       "focus them on the evidence.",
                       ObjectSchema({{"start_ns", kInt}, {"end_ns", kInt}}, {"start_ns", "end_ns"})});
    } else if (name == "add_annotation") {
      specs.push_back({name,
                       "Pin a short note in the user's trace viewer, on a slice (slice_id) or a time "
                       "range (start_ns, end_ns).",
                       ObjectSchema({{"slice_id", kInt},
                                     {"start_ns", kInt},
                                     {"end_ns", kInt},
                                     {"text", {{"type", "string"}}}},
                                    {"text"})});
    } else if (name == "capture_view") {
      specs.push_back({name,
                       "Ask the user's trace viewer to render a view (optionally of a time range) and "
                       "send it back: an image of it, or a summary of its data. Use it to see what "
                       "the user sees.",
                       ObjectSchema({{"view", {{"type", "string"},
                                               {"enum", {"timeline", "frames", "cpu", "thread_states",
                                                         "memory"}}}},
                                     {"start_ns", kInt},
                                     {"end_ns", kInt}},
                                    {"view"})});
    }
  }
  return specs;
}

std::string CheckClientToolArguments(const std::string& tool, const std::string& arguments) {
  const json args = json::parse(arguments.empty() ? "{}" : arguments, nullptr, false);
  if (args.is_discarded() || !args.is_object()) {
    return absl::StrCat("The arguments of ", tool, " are not a JSON object. Send valid JSON matching the schema.");
  }
  auto range_error = [&]() -> std::string {
    const bool start = HasInt(args, "start_ns"), end = HasInt(args, "end_ns");
    if (start != end) return "Give both start_ns and end_ns (integers, trace ns), or neither.";
    if (start && args["end_ns"].get<int64_t>() <= args["start_ns"].get<int64_t>()) {
      return "end_ns must be greater than start_ns.";
    }
    return "";
  };
  if (tool == "select_slice") {
    if (!HasInt(args, "slice_id")) return "select_slice needs an integer slice_id.";
    return "";
  }
  if (tool == "select_time_range") {
    if (!HasInt(args, "start_ns") || !HasInt(args, "end_ns")) {
      return "select_time_range needs integer start_ns and end_ns (trace ns).";
    }
    return range_error();
  }
  if (tool == "add_annotation") {
    if (!args.contains("text") || !args["text"].is_string() || args["text"].get<std::string>().empty()) {
      return "add_annotation needs a non-empty text.";
    }
    if (!HasInt(args, "slice_id") && !(HasInt(args, "start_ns") && HasInt(args, "end_ns"))) {
      return "add_annotation needs a slice_id or a start_ns and end_ns to pin the note to.";
    }
    return range_error();
  }
  if (tool == "capture_view") {
    if (!args.contains("view") || !args["view"].is_string()) return "capture_view needs a view.";
    return range_error();
  }
  return absl::StrCat("Unknown client tool '", tool, "'.");
}

ClientToolOutcome ClientToolOutcomeOf(const ClientToolSlot& slot, int64_t timeout_ms) {
  ClientToolOutcome out;
  const std::string& tool = slot.request.tool;
  switch (slot.state) {
    case ClientToolState::kTimedOut:
      out.text = absl::StrCat("The client did not answer ", tool, " within ", timeout_ms / 1000,
                              " s: the request timed out. Go on without it.");
      out.summary = "timed out";
      return out;
    case ClientToolState::kCancelled:
    case ClientToolState::kPending:
      out.text = absl::StrCat(tool, " was cancelled before the client answered.");
      out.summary = "cancelled";
      return out;
    case ClientToolState::kAnswered:
      break;
  }
  const ClientToolAnswer& a = slot.answer;
  if (!a.error.empty()) {
    out.text = absl::StrCat("The client could not run ", tool, ": ", a.error);
    out.summary = Utf8Prefix(absl::StrCat("client error: ", a.error), 200);
    return out;
  }
  out.ok = true;
  if (!a.image.empty()) {
    out.text = absl::StrCat(tool, " returned an image (", a.image_mime, ", ", a.image.size(), " bytes).");
    out.images.push_back({a.image_mime, a.image});
    out.summary = absl::StrCat("image ", a.image_mime, ", ", a.image.size(), " bytes");
    return out;
  }
  out.text = a.result_json;
  out.summary = Utf8Prefix(a.result_json, 200);
  return out;
}

}  // namespace tw::agent
