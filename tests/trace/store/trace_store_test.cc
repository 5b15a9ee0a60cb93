// The trace store, the trace manager and the local query backend on real synthetic traces:
// uploads (limits, checksums, idempotence), loading under a memory budget (LRU eviction, reload,
// coalescing, failures that touch nothing else) and queries (parameters, streaming, errors,
// parallel traces with one slow query).
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "libs/trace/store/query_backend.h"
#include "libs/trace/store/trace_manager.h"
#include "libs/trace/store/trace_store.h"
#include "tools/synth/sched_trace_writer.h"

namespace tw {
namespace {

namespace fs = std::filesystem;

class TraceStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tw_store_" + std::to_string(getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    auto store = TraceStore::Open((dir_ / "store").string(), 64 << 20);
    ASSERT_TRUE(store.ok());
    store_ = std::move(*store);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A small synthetic trace; different seeds give different content (and ids).
  std::string Synth(uint64_t seed, double seconds = 0.5) {
    synth::SchedTraceOptions options;
    options.cpus = 2;
    options.duration_ns = static_cast<int64_t>(seconds * 1e9);
    options.processes = 4;
    options.threads = 12;
    options.seed = seed;
    const std::string path = (dir_ / ("synth" + std::to_string(seed) + ".pftrace")).string();
    EXPECT_TRUE(synth::WriteSyntheticSchedTrace(options, path).ok());
    return path;
  }

  std::string Add(const std::string& path) {
    auto stored = store_->AddFile(path);
    EXPECT_TRUE(stored.ok()) << stored.status();
    return stored.ok() ? stored->id : "";
  }

  fs::path dir_;
  std::unique_ptr<TraceStore> store_;
};

TEST_F(TraceStoreTest, UploadsAreContentAddressedAndIdempotent) {
  const std::string path = Synth(1);
  auto first = store_->AddFile(path);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->id.size(), 64u);
  EXPECT_FALSE(first->already_stored);
  EXPECT_EQ(first->size_bytes, static_cast<int64_t>(fs::file_size(path)));
  auto again = store_->AddFile(path);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->id, first->id);
  EXPECT_TRUE(again->already_stored);
  EXPECT_EQ(store_->List().size(), 1u);
  EXPECT_EQ(store_->Find(first->id)->name, "synth1.pftrace");
  EXPECT_EQ(store_->Find(std::string(64, 'a')).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store_->Find("../etc/passwd").status().code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(TraceStoreTest, UploadLimitsAndChecksumsAreEnforcedWithoutLeftovers) {
  auto small = TraceStore::Open((dir_ / "small").string(), 1000);
  ASSERT_TRUE(small.ok());
  EXPECT_EQ((*small)->BeginUpload("x", 5000).status().code(), absl::StatusCode::kResourceExhausted);
  auto upload = (*small)->BeginUpload("x", 0);
  ASSERT_TRUE(upload.ok());
  EXPECT_TRUE((*upload)->Append(std::string(600, 'a')).ok());
  EXPECT_EQ((*upload)->Append(std::string(600, 'b')).code(), absl::StatusCode::kResourceExhausted);
  upload->reset();  // abandoned: nothing stays behind
  auto bad = (*small)->BeginUpload("y", 3);
  ASSERT_TRUE((*bad)->Append("abc").ok());
  auto finished = (*bad)->Finish(std::string(64, '0'));
  EXPECT_EQ(finished.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(finished.status().message()).find("checksum mismatch"), std::string::npos);
  bad->reset();
  EXPECT_TRUE((*small)->List().empty());
  EXPECT_TRUE(fs::is_empty(dir_ / "small" / "tmp"));
  auto good = (*small)->BeginUpload("z", 3);
  ASSERT_TRUE((*good)->Append("abc").ok());
  // sha256("abc")
  EXPECT_EQ((*good)->Finish("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")->id,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_F(TraceStoreTest, ManagerEvictsLeastRecentlyUsedAndReloadsOnDemand) {
  const std::string a = Add(Synth(1)), b = Add(Synth(2)), c = Add(Synth(3));
  TraceManager probe(store_.get(), {});
  auto one = probe.Acquire(a);
  ASSERT_TRUE(one.ok()) << one.status();
  const int64_t per_trace = probe.memory_used_bytes();
  ASSERT_GT(per_trace, 0);

  // Room for two traces, not three.
  TraceManager manager(store_.get(), {per_trace * 2 + per_trace / 2});
  ASSERT_TRUE(manager.Acquire(a).ok());
  ASSERT_TRUE(manager.Acquire(b).ok());
  ASSERT_TRUE(manager.Acquire(a).ok());  // a is now the most recently used
  ASSERT_TRUE(manager.Acquire(c).ok());  // evicts b
  std::map<std::string, TraceState> states;
  for (const auto& info : manager.List()) states[info.id] = info.state;
  EXPECT_EQ(states[a], TraceState::kLoaded);
  EXPECT_EQ(states[b], TraceState::kStored);
  EXPECT_EQ(states[c], TraceState::kLoaded);
  EXPECT_LE(manager.memory_used_bytes(), manager.memory_budget_bytes());
  LocalQueryBackend backend(&manager);
  auto r = backend.Query({b, "SELECT COUNT(*) FROM sched"});  // reloads b
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_GT(r->rows[0][0].int_value, 0);
}

TEST_F(TraceStoreTest, LeasesOutliveEviction) {
  const std::string a = Add(Synth(1)), b = Add(Synth(2));
  TraceManager manager(store_.get(), {1});  // every load evicts the others
  // A trace larger than the whole budget is refused, and nothing else changes.
  EXPECT_EQ(manager.Acquire(a).status().code(), absl::StatusCode::kResourceExhausted);
  TraceManager roomy(store_.get(), {int64_t{1} << 30});
  auto lease = roomy.Acquire(a);
  ASSERT_TRUE(lease.ok());
  ASSERT_TRUE(roomy.Unload(a).ok());
  // The lease still queries the trace after it was unloaded.
  EXPECT_TRUE((*lease)->Query("SELECT COUNT(*) FROM thread").ok());
  EXPECT_TRUE(roomy.Acquire(b).ok());
}

TEST_F(TraceStoreTest, ConcurrentLoadsOfOneTraceAreCoalesced) {
  const std::string a = Add(Synth(1, 2.0));
  TraceManager manager(store_.get(), {});
  std::vector<std::shared_ptr<LoadedTrace>> got(4);
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&, i] {
      auto t = manager.Acquire(a);
      ASSERT_TRUE(t.ok());
      got[i] = *t;
    });
  }
  for (auto& t : threads) t.join();
  for (int i = 1; i < 4; ++i) EXPECT_EQ(got[i].get(), got[0].get());  // one load, one instance
}

TEST_F(TraceStoreTest, ACorruptTraceFailsAloneWithAClearError) {
  const std::string good = Add(Synth(1));
  const std::string junk_path = (dir_ / "junk.pftrace").string();
  std::ofstream(junk_path) << "this is not a trace at all, just text that goes on";
  const std::string junk = Add(junk_path);
  TraceManager manager(store_.get(), {});
  ASSERT_TRUE(manager.Acquire(good).ok());
  auto bad = manager.Acquire(junk);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument) << bad.status();
  LocalQueryBackend backend(&manager);
  EXPECT_TRUE(backend.Query({good, "SELECT 1"}).ok());
  for (const auto& info : manager.List()) {
    if (info.id == junk) {
      EXPECT_EQ(info.state, TraceState::kFailed);
      EXPECT_FALSE(info.error.empty());
    }
  }
}

TEST_F(TraceStoreTest, BackendQueriesBindParametersStreamAndReportErrors) {
  const std::string a = Add(Synth(1));
  TraceManager manager(store_.get(), {});
  LocalQueryBackend backend(&manager);
  BackendQuery q{a, "SELECT COUNT(*) FROM sched WHERE cpu = :cpu"};
  q.params = {{"cpu", SqlValue::Int(1)}};
  auto r = backend.Query(q);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_GT(r->rows[0][0].int_value, 0);

  RowStream stream;
  int64_t streamed = 0;
  stream.batch_rows = 100;
  stream.on_rows = [&](std::vector<std::vector<SqlValue>>&& rows) {
    streamed += static_cast<int64_t>(rows.size());
    return true;
  };
  BackendQuery all{a, "SELECT ts, dur FROM sched"};
  all.stream = &stream;
  ASSERT_TRUE(backend.Query(all).ok());
  auto count = backend.Query({a, "SELECT COUNT(*) FROM sched"});
  EXPECT_EQ(streamed, count->rows[0][0].int_value);

  EXPECT_EQ(backend.Query({std::string(64, 'f'), "SELECT 1"}).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(backend.Query({a, "SELECT nope"}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(backend.Query({a, "DELETE FROM sched"}).status().code(), absl::StatusCode::kPermissionDenied);
  BackendQuery slow{a, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT COUNT(*) FROM n"};
  slow.timeout = absl::Milliseconds(50);
  EXPECT_EQ(backend.Query(slow).status().code(), absl::StatusCode::kDeadlineExceeded);
  auto schema = backend.GetSchema(a);
  ASSERT_TRUE(schema.ok());
  bool has_thread = false;
  for (const auto& t : *schema) has_thread |= t.name == "thread";
  EXPECT_TRUE(has_thread);
}

TEST_F(TraceStoreTest, ASlowQueryBlocksOnlyItsOwnTrace) {
  const std::string a = Add(Synth(1)), b = Add(Synth(2));
  TraceManager manager(store_.get(), {});
  LocalQueryBackend backend(&manager);
  ASSERT_TRUE(manager.Acquire(a).ok());
  ASSERT_TRUE(manager.Acquire(b).ok());
  std::atomic<bool> cancel{false};
  absl::Status slow_status;
  std::thread slow([&] {
    BackendQuery q{a, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT COUNT(*) FROM n"};
    q.cancelled = &cancel;
    slow_status = backend.Query(q).status();
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const auto start = std::chrono::steady_clock::now();
  auto fast = backend.Query({b, "SELECT COUNT(*) FROM sched"});
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(fast.ok());
  EXPECT_LT(elapsed, std::chrono::seconds(2));
  cancel = true;
  slow.join();
  EXPECT_EQ(slow_status.code(), absl::StatusCode::kCancelled);
}

TEST_F(TraceStoreTest, ATraceThatCannotFitIsRefusedOnceAndRemembered) {
  const std::string a = Add(Synth(1, 2.0)), small = Add(Synth(2, 0.2));
  // Room for the small trace; the big one's expected peak (from its size and kind) is more.
  TraceManager probe(store_.get(), {});
  ASSERT_TRUE(probe.Acquire(small).ok());
  const int64_t small_bytes = probe.memory_used_bytes();
  const int64_t a_size = store_->Find(a)->size_bytes;
  const int64_t budget = small_bytes + 2 * a_size;  // well under a's peak estimate
  TraceManager manager(store_.get(), {budget});
  auto first = manager.Acquire(a);
  ASSERT_EQ(first.status().code(), absl::StatusCode::kResourceExhausted) << first.status();
  EXPECT_NE(first.status().message().find("memory budget"), absl::string_view::npos);
  EXPECT_EQ(manager.loads_started(), 0) << "refused by its expected peak, without loading";
  // Asked again (18 concurrent queries in the load test): the same answer, no load.
  std::vector<std::thread> threads;
  std::atomic<int> refused{0};
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&] {
      if (manager.Acquire(a).status().code() == absl::StatusCode::kResourceExhausted) ++refused;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(refused.load(), 8);
  EXPECT_EQ(manager.loads_started(), 0);
  for (const auto& info : manager.List()) {
    if (info.id == a) {
      EXPECT_EQ(info.state, TraceState::kFailed);
      EXPECT_EQ(info.error, std::string(first.status().message()));
    }
  }
  // Everything else is untouched.
  EXPECT_TRUE(manager.Acquire(small).ok());
  EXPECT_EQ(manager.loads_started(), 1);
}

TEST_F(TraceStoreTest, AnUnreadableTraceIsNotReloaded) {
  const std::string junk_path = (dir_ / "junk.json").string();
  std::ofstream(junk_path) << "{\"traceEvents\": [ {\"ph\": \"X\", \"ts\": ";
  const std::string junk = Add(junk_path);
  TraceManager manager(store_.get(), {});
  const auto first = manager.Acquire(junk).status();
  if (first.ok()) GTEST_SKIP() << "the JSON importer accepted a truncated trace";
  EXPECT_EQ(first.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(manager.Acquire(junk).status(), first);
  EXPECT_EQ(manager.loads_started(), 1);
}

TEST_F(TraceStoreTest, ConcurrentLoadsStayWithinTheBudget) {
  std::vector<std::string> ids;
  for (uint64_t seed = 1; seed <= 6; ++seed) ids.push_back(Add(Synth(seed, 1.0)));
  TraceManager probe(store_.get(), {});
  ASSERT_TRUE(probe.Acquire(ids[0]).ok());
  const int64_t per_trace = probe.memory_used_bytes();
  // Room for about three traces (and their loads' peaks); twelve threads ask for six.
  TraceManager manager(store_.get(), {per_trace * 4});
  LocalQueryBackend backend(&manager);
  std::atomic<bool> stop{false};
  std::atomic<int64_t> highest{0};
  std::thread monitor([&] {
    while (!stop) {
      highest = std::max(highest.load(), manager.memory_used_bytes());
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 12; ++i) {
    threads.emplace_back([&, i] {
      for (int round = 0; round < 3; ++round) {
        auto r = backend.Query({ids[(i + round) % ids.size()], "SELECT COUNT(*) FROM sched"});
        if (r.ok()) {
          ++ok;
        } else {
          ADD_FAILURE() << r.status();
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  stop = true;
  monitor.join();
  EXPECT_EQ(ok.load(), 36);
  EXPECT_LE(highest.load(), manager.memory_budget_bytes());
  EXPECT_LE(manager.memory_used_bytes(), manager.memory_budget_bytes());
}

TEST_F(TraceStoreTest, MemoryAQueryAddsIsCounted) {
  const std::string a = Add(Synth(1, 2.0));
  TraceManager manager(store_.get(), {});
  LocalQueryBackend backend(&manager);
  ASSERT_TRUE(manager.Acquire(a).ok());
  const int64_t before = manager.memory_used_bytes();
  // Equality on a column builds its index (a row id per row), kept with the trace.
  ASSERT_TRUE(backend.Query({a, "SELECT COUNT(*) FROM sched WHERE utid = 3"}).ok());
  ASSERT_TRUE(backend.Query({a, "SELECT COUNT(*) FROM sched WHERE dur = 1000"}).ok());
  EXPECT_GT(manager.memory_used_bytes(), before);
  for (const auto& info : manager.List()) {
    if (info.id == a) {
      EXPECT_EQ(info.memory_bytes, manager.memory_used_bytes());
    }
  }
}

}  // namespace
}  // namespace tw
