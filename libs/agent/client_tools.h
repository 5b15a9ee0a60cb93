#pragma once
// Tools that run in the client (DESIGN.md §5): the model asks the user's trace viewer to select
// or annotate something, or to render a view and send it back, as chat assistants in trace
// viewers do. They are offered only when the caller says it can run them
// (AskOptions.client_tools). A call goes to the client as a request; the turn pauses until the
// answer comes (or the request times out), and the model then reads the outcome like any tool
// result — a capture_view image as image content.
//
//   select_slice       {slice_id}                              focus the UI on a slice
//   select_time_range  {start_ns, end_ns}                      focus the UI on a time range
//   add_annotation     {slice_id | start_ns,end_ns, text}      pin a note in the UI
//   capture_view       {view, start_ns?, end_ns?}              render a view: an image or a data summary

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "libs/agent/agent_tools.h"
#include "libs/agent/session_store.h"
#include "libs/llm/llm_provider.h"

namespace tw::agent {

// Every client tool, in the order they are offered.
const std::vector<std::string>& ClientToolNames();
bool IsClientTool(const std::string& name);
// INVALID_ARGUMENT naming the first unknown or repeated tool and listing the known ones.
absl::Status ValidateClientTools(const std::vector<std::string>& names);
// The specs of `offered` (client tool names), for the model.
std::vector<ToolSpec> ClientToolSpecs(const std::vector<std::string>& offered);
// What is wrong with the arguments the model sent (for the model to fix); empty when they are
// fine. Checked before a request goes to the client.
std::string CheckClientToolArguments(const std::string& tool, const std::string& arguments);

// A settled request as the model reads it.
struct ClientToolOutcome {
  bool ok = false;
  std::string text;                       // the tool result's text
  std::vector<llm::ImageContent> images;  // capture_view's rendering
  std::string summary;                    // one line for the tool_result event
};
// `timeout_ms` is the wait the request had (said in the timeout message).
ClientToolOutcome ClientToolOutcomeOf(const ClientToolSlot& slot, int64_t timeout_ms);

}  // namespace tw::agent
