#pragma once
// The outcome of a ProtoVM step. kError is a soft failure (a path that is not there): the
// instruction's abort level decides what happens next. kAbort is a hard failure (a malformed
// program or patch, a type mismatch, the memory limit): the whole patch is rejected. A patch
// only produces a new incremental state when the program ends kOk.

#include <string>
#include <utility>

namespace tw::protovm {

struct VmStatus {
  enum class Code : uint8_t { kOk, kError, kAbort };
  Code code = Code::kOk;
  std::string message;  // why an abort happened, for diagnostics

  static VmStatus Ok() { return {}; }
  static VmStatus Error() { return {Code::kError, {}}; }
  static VmStatus Abort(std::string why) { return {Code::kAbort, std::move(why)}; }
  bool ok() const { return code == Code::kOk; }
  bool is_error() const { return code == Code::kError; }
  bool is_abort() const { return code == Code::kAbort; }
};

}  // namespace tw::protovm
