#include "libs/trace/trackers/process_tracker.h"

#include <gtest/gtest.h>

namespace tw {
namespace {

class ProcessTrackerTest : public testing::Test {
 protected:
  TraceStorage storage;
  ProcessTracker tracker{&storage};
};

TEST_F(ProcessTrackerTest, ThreadsJoinTheirProcess) {
  const uint32_t t1 = tracker.UpdateThread(11, 10);
  const uint32_t t0 = *tracker.GetThreadOrNull(10);
  EXPECT_EQ(storage.thread.upid[t1], storage.thread.upid[t0]);
  EXPECT_EQ(storage.thread.is_main_thread[t0], 1);
  EXPECT_EQ(storage.thread.is_main_thread[t1], 0);
  EXPECT_EQ(storage.process.pid[storage.thread.upid[t1]], 10);
}

TEST_F(ProcessTrackerTest, TidReuseInAnotherProcessCreatesANewThread) {
  const uint32_t first = tracker.UpdateThread(42, 40);
  const uint32_t second = tracker.UpdateThread(42, 50);
  EXPECT_NE(first, second);
  EXPECT_EQ(*tracker.GetThreadOrNull(42), second);
}

TEST_F(ProcessTrackerTest, EndedThreadIsNotReturnedAgain) {
  const uint32_t first = tracker.GetOrCreateThread(7);
  tracker.EndThread(100, 7);
  EXPECT_EQ(storage.thread.end_ts[first], 100);
  EXPECT_NE(tracker.GetOrCreateThread(7), first);
}

TEST_F(ProcessTrackerTest, PendingAssociationResolvesLater) {
  const uint32_t a = tracker.GetOrCreateThread(100);
  const uint32_t b = tracker.StartNewThread(5, 101);
  tracker.AssociateThreads(a, b);
  EXPECT_TRUE(storage.thread.upid.IsNull(b));
  tracker.UpdateThread(100, 100);  // now 100's process is known
  ASSERT_FALSE(storage.thread.upid.IsNull(b));
  EXPECT_EQ(storage.process.pid[storage.thread.upid[b]], 100);
}

TEST_F(ProcessTrackerTest, NamePriorityKeepsBetterNames) {
  const uint32_t utid = tracker.GetOrCreateThread(5);
  tracker.UpdateThreadName(utid, storage.Intern("from_tree"), ThreadNamePriority::kProcessTree);
  tracker.UpdateThreadName(utid, storage.Intern("from_ftrace"), ThreadNamePriority::kFtrace);
  EXPECT_EQ(storage.Str(storage.thread.name[utid]), "from_tree");
}

// Renaming a thread to the name it already has still counts for its priority: a later,
// lower-priority name must not replace it.
TEST_F(ProcessTrackerTest, SameNameFromABetterSourceRaisesItsPriority) {
  const uint32_t utid = tracker.GetOrCreateThread(6);
  tracker.UpdateThreadName(utid, storage.Intern("worker"), ThreadNamePriority::kFtrace);
  tracker.UpdateThreadName(utid, storage.Intern("worker"), ThreadNamePriority::kProcessTree);
  tracker.UpdateThreadName(utid, storage.Intern("renamed"), ThreadNamePriority::kFtrace);
  EXPECT_EQ(storage.Str(storage.thread.name[utid]), "worker");
  tracker.UpdateThreadName(utid, storage.Intern("renamed"), ThreadNamePriority::kProcessTree);
  EXPECT_EQ(storage.Str(storage.thread.name[utid]), "renamed");
  // The same name again, and back: each change reaches the table.
  tracker.UpdateThreadName(utid, storage.Intern("renamed"), ThreadNamePriority::kProcessTree);
  tracker.UpdateThreadName(utid, storage.Intern("worker"), ThreadNamePriority::kProcessTree);
  EXPECT_EQ(storage.Str(storage.thread.name[utid]), "worker");
}

// What the system says a process is called (its main thread's comm, a task_rename) wins over the
// name an app's track descriptor gives, whichever comes first.
TEST_F(ProcessTrackerTest, SystemProcessNamesBeatTrackDescriptorNames) {
  const uint32_t upid = tracker.GetOrCreateProcess(20);
  const uint32_t main = *tracker.GetThreadOrNull(20);
  tracker.UpdateProcessName(upid, storage.Intern("./app_binary"),
                            ProcessNamePriority::kTrackDescriptor);
  tracker.UpdateThreadNameAndMaybeProcessName(main, storage.Intern("app"),
                                              ThreadNamePriority::kFtrace);
  EXPECT_EQ(storage.Str(storage.process.name[upid]), "app");
  tracker.UpdateProcessName(upid, storage.Intern("./app_binary"),
                            ProcessNamePriority::kTrackDescriptor);
  EXPECT_EQ(storage.Str(storage.process.name[upid]), "app");
}

TEST_F(ProcessTrackerTest, PidZeroIsSwapperOnceKernelDataIsSeen) {
  tracker.SetPidZeroIsUpidZeroIdleProcess();
  EXPECT_EQ(tracker.GetOrCreateThread(0), 0u);
  EXPECT_EQ(storage.Str(storage.thread.name[0]), "swapper");
}

}  // namespace
}  // namespace tw
