#include "libs/trace/importers/json/v8_cpu_profile.h"

#include <string_view>

#include "absl/strings/str_cat.h"
#include "libs/trace/importers/common/json_value.h"

namespace tw {
namespace {

std::optional<uint32_t> Uint32Of(const JsonValue& v) {
  if (!v.is_number()) return std::nullopt;
  const std::optional<int64_t> n = JsonNumberToInt64(v.text);
  if (!n || *n < 0 || *n > UINT32_MAX) return std::nullopt;
  return static_cast<uint32_t>(*n);
}

// Arrays of numbers: elements that are not numbers are skipped.
template <typename T, typename Read>
bool ReadNumbers(std::string_view array, Read read, std::vector<T>* out) {
  std::vector<T> values;
  const bool ok = ForEachJsonElement(array, [&](const JsonValue& v) {
    if (auto n = read(v)) values.push_back(*n);
    return true;
  });
  if (ok) *out = std::move(values);
  return ok;
}

bool ReadNode(std::string_view object, V8ProfileArgs::Node* node) {
  return ForEachJsonMember(object, [&](std::string_view key, const JsonValue& v) {
    if (key == "id") {
      if (auto id = Uint32Of(v)) node->id = *id;
    } else if (key == "parent") {
      node->parent = Uint32Of(v);
    } else if (key == "children" && v.type == JsonValue::Type::kArray) {
      ReadNumbers<uint32_t>(v.text, Uint32Of, &node->children);
    } else if (key == "callFrame" && v.is_object()) {
      ForEachJsonMember(v.text, [&](std::string_view k, const JsonValue& f) {
        if (k == "url" && f.is_string() && !f.text.empty()) node->url = std::string(f.text);
        if (k == "functionName" && f.is_string()) node->function_name = std::string(f.text);
        return true;
      });
    }
    return true;
  });
}

}  // namespace

absl::StatusOr<V8ProfileArgs> ParseV8ProfileArgs(std::string_view args) {
  V8ProfileArgs out;
  auto read_data = [&](std::string_view data) {
    return ForEachJsonMember(data, [&](std::string_view key, const JsonValue& v) {
      if (key == "startTime") {
        if (v.is_number()) out.start_time_us = JsonNumberToInt64(v.text);
      } else if (key == "timeDeltas" && v.type == JsonValue::Type::kArray) {
        ReadNumbers<int64_t>(
            v.text,
            [](const JsonValue& e) {
              return e.is_number() ? JsonNumberToInt64(e.text) : std::nullopt;
            },
            &out.time_deltas_us);
      } else if (key == "cpuProfile" && v.is_object()) {
        ForEachJsonMember(v.text, [&](std::string_view k, const JsonValue& p) {
          if (k == "nodes" && p.type == JsonValue::Type::kArray) {
            ForEachJsonElement(p.text, [&](const JsonValue& n) {
              if (!n.is_object()) return true;
              V8ProfileArgs::Node node;
              ReadNode(n.text, &node);
              out.nodes.push_back(std::move(node));
              return true;
            });
          } else if (k == "samples" && p.type == JsonValue::Type::kArray) {
            ReadNumbers<uint32_t>(p.text, Uint32Of, &out.samples);
          }
          return true;
        });
      }
      return true;
    });
  };
  const bool ok = ForEachJsonMember(args, [&](std::string_view key, const JsonValue& v) {
    if (key == "data" && v.is_object()) read_data(v.text);
    return true;
  });
  if (!ok) return absl::InvalidArgumentError("v8 profile: args are not a JSON object");
  return out;
}

bool V8ProfileSessions::Start(uint64_t id, uint32_t pid, int64_t start_ns) {
  auto [it, inserted] = profiles_.try_emplace({id, pid});
  it->second.ts = start_ns;
  return inserted;
}

absl::Status V8ProfileSessions::AddNode(uint64_t id, uint32_t pid,
                                        const V8ProfileArgs::Node& node, TraceStorage* storage,
                                        std::vector<V8CpuProfileData::Node>* out) {
  auto it = profiles_.find({id, pid});
  if (it == profiles_.end()) {
    return absl::NotFoundError("v8 profile id does not exist: cannot insert callsite");
  }
  Profile& p = it->second;
  if (p.depth_of.contains(node.id)) {
    return absl::AlreadyExistsError("v8 profile: callsite with id already exists");
  }
  V8CpuProfileData::Node made;
  made.id = node.id;
  made.function_name = storage->Intern(node.function_name);
  if (node.url) made.url = storage->Intern(*node.url);

  // V8 names each node's parent; DevTools / Node.js name its children instead.
  std::optional<uint32_t> parent = node.parent;
  if (!parent) {
    if (auto inferred = p.inferred_parent.find(node.id); inferred != p.inferred_parent.end()) {
      parent = inferred->second;
    }
  }
  if (parent && !p.depth_of.contains(*parent)) {
    made.frame_only = true;  // the frame exists by now; the callsite does not
    out->push_back(made);
    return absl::NotFoundError("v8 profile parent id does not exist: cannot insert callsite");
  }
  made.parent = parent;
  made.depth = parent ? p.depth_of[*parent] + 1 : 0;
  p.depth_of[node.id] = made.depth;
  out->push_back(made);

  // Children named here get this node as parent, now if already known, else when they come.
  for (uint32_t child : node.children) {
    if (!p.inferred_parent.try_emplace(child, node.id).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("v8 profile: multiple nodes specify the same node id ", child,
                       " as child"));
    }
    auto known = p.depth_of.find(child);
    if (known == p.depth_of.end()) continue;
    known->second = made.depth + 1;
    V8CpuProfileData::Node reparent;
    reparent.id = child;
    reparent.reparent = true;
    reparent.parent = node.id;
    reparent.depth = made.depth + 1;
    out->push_back(reparent);
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> V8ProfileSessions::NextSampleTime(uint64_t id, uint32_t pid,
                                                          int64_t delta_ns) {
  auto it = profiles_.find({id, pid});
  if (it == profiles_.end()) {
    return absl::NotFoundError(
        "v8 profile id does not exist: cannot compute timestamp from delta");
  }
  it->second.ts += delta_ns;
  return it->second.ts;
}

}  // namespace tw
