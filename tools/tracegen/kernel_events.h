#pragma once
// Field numbers of the kernel ftrace events tracegen writes beyond scheduling, binder and
// atrace: memory reclaim, low-memory kills, block I/O, file syncs, page-cache fills, task
// migration, wakeup sources, DMA fences, frequency limits. Wire-format facts from Perfetto's
// ftrace protos (`FtraceEvent` oneof ids and each event's fields), as the engine's descriptor
// table lists them (libs/trace/importers/proto/ftrace_descriptors.cc); tracegen keeps its own
// copy so it does not depend on the engine.

#include <cstdint>

namespace tw::tracegen::kernel_events {

// FtraceEvent oneof ids.
inline constexpr uint32_t kMmVmscanDirectReclaimBegin = 46;
inline constexpr uint32_t kMmVmscanDirectReclaimEnd = 47;
inline constexpr uint32_t kMmVmscanKswapdWake = 48;
inline constexpr uint32_t kMmVmscanKswapdSleep = 49;
inline constexpr uint32_t kBlockRqIssue = 45;
inline constexpr uint32_t kBlockRqComplete = 125;
inline constexpr uint32_t kMmFilemapAddToPageCache = 97;
inline constexpr uint32_t kF2fsSyncFileEnter = 255;
inline constexpr uint32_t kF2fsSyncFileExit = 256;
inline constexpr uint32_t kOomScoreAdjUpdate = 326;
inline constexpr uint32_t kWakeupSourceActivate = 404;
inline constexpr uint32_t kWakeupSourceDeactivate = 405;
inline constexpr uint32_t kDmaFenceInit = 414;
inline constexpr uint32_t kDmaFenceSignaled = 416;
inline constexpr uint32_t kSchedMigrateTask = 491;
inline constexpr uint32_t kCpuFrequencyLimits = 12;

namespace direct_reclaim_begin { inline constexpr uint32_t kOrder = 1, kMayWritepage = 2, kGfpFlags = 3; }
namespace direct_reclaim_end { inline constexpr uint32_t kNrReclaimed = 1; }
namespace kswapd_wake { inline constexpr uint32_t kNid = 1, kOrder = 2, kZid = 3; }
namespace kswapd_sleep { inline constexpr uint32_t kNid = 1; }
namespace block_rq_issue {
inline constexpr uint32_t kDev = 1, kSector = 2, kNrSector = 3, kBytes = 4, kRwbs = 5, kComm = 6,
                          kCmd = 7;
}
namespace block_rq_complete {
inline constexpr uint32_t kDev = 1, kSector = 2, kNrSector = 3, kErrors = 4, kRwbs = 5, kCmd = 6,
                          kError = 7;
}
namespace mm_filemap_add_to_page_cache {
inline constexpr uint32_t kPfn = 1, kIIno = 2, kIndex = 3, kSDev = 4, kPage = 5;
}
namespace f2fs_sync_file_enter {
inline constexpr uint32_t kDev = 1, kIno = 2, kPino = 3, kMode = 4, kSize = 5, kNlink = 6,
                          kBlocks = 7, kAdvise = 8;
}
namespace f2fs_sync_file_exit {
inline constexpr uint32_t kDev = 1, kIno = 2, kNeedCp = 3, kDatasync = 4, kRet = 5, kCpReason = 6;
}
namespace oom_score_adj_update { inline constexpr uint32_t kComm = 1, kOomScoreAdj = 2, kPid = 3; }
namespace wakeup_source { inline constexpr uint32_t kName = 1, kState = 2; }
namespace dma_fence {
inline constexpr uint32_t kContext = 1, kDriver = 2, kSeqno = 3, kTimeline = 4;
}
namespace sched_migrate_task {
inline constexpr uint32_t kComm = 1, kPid = 2, kPrio = 3, kOrigCpu = 4, kDestCpu = 5,
                          kRunning = 6, kLoad = 7;
}
namespace cpu_frequency_limits { inline constexpr uint32_t kMinFreq = 1, kMaxFreq = 2, kCpuId = 3; }

}  // namespace tw::tracegen::kernel_events
