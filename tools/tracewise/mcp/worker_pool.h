#pragma once
// A fixed set of threads running queued jobs in order of arrival: tool calls and resource reads
// run here, so the thread reading stdin stays free to see a `notifications/cancelled` for a call
// that is still running. With zero threads a job runs inline in Submit (tests, the fuzzer).

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tw::mcp {

class WorkerPool {
 public:
  explicit WorkerPool(int threads);
  // Finishes the queued jobs, then joins.
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  void Submit(std::function<void()> job);
  // Blocks until the queue is empty and no job runs.
  void Drain();

 private:
  void Loop();

  std::mutex mu_;
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::deque<std::function<void()>> queue_;
  int running_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace tw::mcp
