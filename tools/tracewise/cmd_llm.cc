// `tracewise llm ping ["prompt"]`: sends one short prompt to the configured LLM provider and
// prints the answer, the latency and the token usage — the first thing to run after setting a
// key. With no provider configured it explains how to configure one and exits 3.

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <string>

#include "absl/strings/str_format.h"
#include "libs/llm/cost_tracker.h"
#include "libs/llm/llm_config.h"
#include "libs/llm/llm_provider.h"
#include "tools/tracewise/commands.h"

namespace tw::cli {
namespace {

std::atomic<bool> g_interrupted{false};

void OnInterrupt(int) { g_interrupted = true; }

void PrintLlmUsage() {
  std::fprintf(stderr,
               "usage: tracewise llm ping [\"prompt\"] [--config FILE] [--light] [--no-stream]\n"
               "  Sends one prompt to the configured provider (TRACEWISE_LLM_* or the config\n"
               "  file) and prints the answer, latency and usage. Exit codes: 0 answered,\n"
               "  1 the request failed, 2 usage error, 3 no LLM configured.\n");
}

int64_t MsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t)
      .count();
}

int RunPing(const Args& args) {
  std::string prompt = "Reply with one short sentence to confirm you are reachable.";
  std::string config_path;
  bool light = false;
  bool stream = true;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--config" && i + 1 < args.size()) {
      config_path = args[++i];
    } else if (a == "--light") {
      light = true;
    } else if (a == "--no-stream") {
      stream = false;
    } else if (a == "--help" || a == "-h") {
      PrintLlmUsage();
      return 0;
    } else if (!a.empty() && a[0] != '-') {
      prompt = a;
    } else {
      PrintLlmUsage();
      return 2;
    }
  }

  auto config = llm::LoadLlmConfig(config_path);
  if (!config.ok()) {
    std::fprintf(stderr, "tracewise llm: %s\n", std::string(config.status().message()).c_str());
    return 3;
  }
  if (!config->configured()) {
    std::fprintf(stderr, "%s", llm::HowToConfigure().c_str());
    return 3;
  }
  auto provider = llm::MakeProvider(*config, light);
  if (!provider.ok()) {
    std::fprintf(stderr, "tracewise llm: %s\n", std::string(provider.status().message()).c_str());
    return 3;
  }
  std::printf("provider  %s\n", config->Describe().c_str());
  std::printf("prompt    %s\n", prompt.c_str());
  std::printf("answer    ");
  std::fflush(stdout);

  llm::ChatRequest request;
  request.system.rest = "You are answering a connectivity check. Be brief.";
  request.messages.push_back({llm::Role::kUser, prompt});
  request.options.max_tokens = 256;
  request.options.timeout_ms = config->request_timeout_ms;
  request.options.stream = stream;

  std::signal(SIGINT, OnInterrupt);
  const auto start = std::chrono::steady_clock::now();
  int64_t first_token_ms = -1;
  llm::StreamCallbacks callbacks;
  callbacks.on_text = [&](const std::string& delta) {
    if (first_token_ms < 0) first_token_ms = MsSince(start);
    std::fwrite(delta.data(), 1, delta.size(), stdout);
    std::fflush(stdout);
  };
  callbacks.is_cancelled = [] { return g_interrupted.load(); };
  auto response = (*provider)->Chat(request, callbacks);
  const int64_t total_ms = MsSince(start);
  std::signal(SIGINT, SIG_DFL);
  std::printf("\n");
  if (!response.ok()) {
    std::fprintf(stderr, "tracewise llm ping: failed after %lld ms: %s\n",
                 static_cast<long long>(total_ms), response.status().ToString().c_str());
    return 1;
  }
  if (response->text.empty() && !response->tool_calls.empty()) {
    std::printf("          (the model answered with %zu tool call(s))\n",
                response->tool_calls.size());
  }
  if (first_token_ms >= 0 && stream) {
    std::printf("latency   %lld ms to the first token, %lld ms in total\n",
                static_cast<long long>(first_token_ms), static_cast<long long>(total_ms));
  } else {
    std::printf("latency   %lld ms in total\n", static_cast<long long>(total_ms));
  }
  const llm::Usage& u = response->usage;
  std::printf("usage     %lld input tokens (%lld cached), %lld output tokens\n",
              static_cast<long long>(u.input_tokens), static_cast<long long>(u.cached_input_tokens),
              static_cast<long long>(u.output_tokens));
  const std::string model = response->model.empty() ? (*provider)->Model() : response->model;
  if (auto price = config->prices.Find(model)) {
    std::printf("cost      $%.6f (%s)\n", llm::CostUsd(*price, u), model.c_str());
  } else {
    std::printf("cost      unknown (no price for model '%s'; add one under llm.prices)\n",
                model.c_str());
  }
  return 0;
}

}  // namespace

int RunLlm(const Args& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    PrintLlmUsage();
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "ping") return RunPing(Args(args.begin() + 1, args.end()));
  std::fprintf(stderr, "tracewise llm: unknown subcommand '%s'\n", args[0].c_str());
  PrintLlmUsage();
  return 2;
}

}  // namespace tw::cli
