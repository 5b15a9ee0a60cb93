#pragma once
// Hypotheses the agent states and must resolve before concluding (submit_hypothesis,
// resolve_hypothesis). Resolving needs evidence that exists in the session's artifacts, so a
// hypothesis cannot be "confirmed" by assertion.

#include <functional>
#include <string>
#include <vector>

namespace tw::agent {

struct AgentHypothesis {
  std::string id;  // "H1", "H2", ...
  std::string statement;
  std::string status = "open";  // open | confirmed | rejected
  std::vector<std::string> evidence;
  std::string resolution;  // why it was confirmed or rejected
};

class HypothesisBoard {
 public:
  // Returns the new hypothesis id.
  std::string Submit(const std::string& statement);
  // Empty string on success, else the reason it was refused.
  std::string Resolve(const std::string& id, const std::string& status,
                      const std::vector<std::string>& evidence, const std::string& resolution,
                      const std::function<bool(const std::string&)>& artifact_exists);

  const std::vector<AgentHypothesis>& all() const { return hypotheses_; }
  // A board holding `hypotheses` (a paused turn's, restored).
  static HypothesisBoard FromList(std::vector<AgentHypothesis> hypotheses) {
    HypothesisBoard board;
    board.hypotheses_ = std::move(hypotheses);
    return board;
  }
  int open_count() const;
  std::string Describe() const;

 private:
  std::vector<AgentHypothesis> hypotheses_;
};

}  // namespace tw::agent
