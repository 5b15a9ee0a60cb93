#pragma once
// Bridges two cancellation signals that cannot wait on each other: polls `should_cancel` every
// `interval` on a small thread and calls `on_cancel` once when it turns true. Used both ways: a
// client's cancelled flag → ClientContext::TryCancel, a server call's IsCancelled → the engine's
// flag (polled by SQLite's progress handler) for queries that compute long before any row.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace tw::rpc {

class CancelPoller {
 public:
  CancelPoller(std::function<bool()> should_cancel, std::function<void()> on_cancel,
               std::chrono::milliseconds interval = std::chrono::milliseconds(20))
      : thread_([this, should_cancel = std::move(should_cancel), on_cancel = std::move(on_cancel),
                 interval] {
          std::unique_lock<std::mutex> lock(mu_);
          while (!done_) {
            if (should_cancel()) {
              on_cancel();
              return;
            }
            cv_.wait_for(lock, interval);
          }
        }) {}

  ~CancelPoller() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

  CancelPoller(const CancelPoller&) = delete;
  CancelPoller& operator=(const CancelPoller&) = delete;

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;  // last: starts after the members it uses exist
};

}  // namespace tw::rpc
