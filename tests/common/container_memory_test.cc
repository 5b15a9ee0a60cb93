// The container memory limit from prepared cgroup files: v2 (own cgroup and its ancestors, the
// tightest wins; "max" is no limit), v1 (its "unlimited" sentinel), and none at all.
#include "libs/common/container_memory.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/common/process_temp_dir.h"

namespace tw {
namespace {

namespace fs = std::filesystem;

class ContainerMemoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = testing::ProcessTempDir() + ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(root_);
  }
  void Write(const std::string& path, const std::string& text) {
    const fs::path p = fs::path(root_) / path.substr(1);
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  std::string root_;
};

TEST_F(ContainerMemoryTest, CgroupV2InsideANamespace) {
  Write("/proc/self/cgroup", "0::/\n");
  Write("/sys/fs/cgroup/memory.max", "536870912\n");
  EXPECT_EQ(ContainerMemoryLimitBytes(root_), int64_t{512} << 20);
}

TEST_F(ContainerMemoryTest, CgroupV2TakesTheTightestAncestor) {
  Write("/proc/self/cgroup", "0::/kubepods/pod1/ctr\n");
  Write("/sys/fs/cgroup/kubepods/pod1/ctr/memory.max", "max\n");
  Write("/sys/fs/cgroup/kubepods/pod1/memory.max", "1073741824\n");
  Write("/sys/fs/cgroup/kubepods/memory.max", "4294967296\n");
  EXPECT_EQ(ContainerMemoryLimitBytes(root_), int64_t{1} << 30);
}

TEST_F(ContainerMemoryTest, CgroupV2WithoutALimit) {
  Write("/proc/self/cgroup", "0::/user.slice\n");
  Write("/sys/fs/cgroup/user.slice/memory.max", "max\n");
  EXPECT_EQ(ContainerMemoryLimitBytes(root_), std::nullopt);
}

TEST_F(ContainerMemoryTest, CgroupV1MemoryController) {
  Write("/proc/self/cgroup", "5:cpu,cpuacct:/x\n4:memory:/docker/abc\n0::/\n");
  Write("/sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes", "268435456\n");
  Write("/sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
  EXPECT_EQ(ContainerMemoryLimitBytes(root_), int64_t{256} << 20);
}

TEST_F(ContainerMemoryTest, CgroupV1Unlimited) {
  Write("/proc/self/cgroup", "4:memory:/\n");
  Write("/sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
  EXPECT_EQ(ContainerMemoryLimitBytes(root_), std::nullopt);
}

TEST_F(ContainerMemoryTest, NoCgroupFilesystem) {
  EXPECT_EQ(ContainerMemoryLimitBytes(root_), std::nullopt);
  EXPECT_EQ(BudgetFromLimit(int64_t{1} << 30), int64_t{768} << 20);
}

}  // namespace
}  // namespace tw
