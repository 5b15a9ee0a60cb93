#pragma once
// Field numbers of Perfetto's trace protos (wire-format facts), for the hand-written decoder.
// One namespace per message (nested messages are prefixed by their parent, except
// compact_sched); the trailing comment gives the field's proto type. Enum values follow the
// messages, one namespace per enum.

#include <cstdint>

namespace tw::pf {

// Trace (protos/perfetto/trace/trace.proto)
namespace trace {
inline constexpr uint32_t kPacket = 1;  // repeated TracePacket
}  // namespace trace

// TracePacket (protos/perfetto/trace/trace_packet.proto)
namespace trace_packet {
inline constexpr uint32_t kFtraceEvents = 1;              // FtraceEventBundle
inline constexpr uint32_t kProcessTree = 2;               // ProcessTree
inline constexpr uint32_t kTrustedUid = 3;                // int32
inline constexpr uint32_t kInodeFileMap = 4;              // InodeFileMap
inline constexpr uint32_t kChromeEvents = 5;              // ChromeEventBundle
inline constexpr uint32_t kClockSnapshot = 6;             // ClockSnapshot
inline constexpr uint32_t kSysStats = 7;                  // SysStats
inline constexpr uint32_t kTimestamp = 8;                 // uint64
inline constexpr uint32_t kProcessStats = 9;              // ProcessStats
inline constexpr uint32_t kTrustedPacketSequenceId = 10;  // uint32
inline constexpr uint32_t kTrackEvent = 11;               // TrackEvent
inline constexpr uint32_t kInternedData = 12;             // InternedData
inline constexpr uint32_t kSequenceFlags = 13;            // uint32
inline constexpr uint32_t kTraceConfig = 33;              // TraceConfig
inline constexpr uint32_t kFtraceStats = 34;              // FtraceStats
inline constexpr uint32_t kTraceStats = 35;               // TraceStats
inline constexpr uint32_t kSynchronizationMarker = 36;    // bytes
inline constexpr uint32_t kProfilePacket = 37;            // ProfilePacket
inline constexpr uint32_t kBattery = 38;                  // BatteryCounters
inline constexpr uint32_t kAndroidLog = 39;               // AndroidLogPacket
inline constexpr uint32_t kPowerRails = 40;               // PowerRails
inline constexpr uint32_t kIncrementalStateCleared = 41;  // bool
inline constexpr uint32_t kPreviousPacketDropped = 42;    // uint32
inline constexpr uint32_t kProcessDescriptor = 43;        // ProcessDescriptor
inline constexpr uint32_t kThreadDescriptor = 44;         // ThreadDescriptor
inline constexpr uint32_t kSystemInfo = 45;               // SystemInfo
inline constexpr uint32_t kTrigger = 46;                  // Trigger
inline constexpr uint32_t kPackagesList = 47;             // PackagesList
inline constexpr uint32_t kChromeBenchmarkMetadata = 48;  // ChromeBenchmarkMetadata
inline constexpr uint32_t kPerfettoMetatrace = 49;        // PerfettoMetatrace
inline constexpr uint32_t kCompressedPackets = 50;        // bytes
inline constexpr uint32_t kChromeMetadata = 51;           // ChromeMetadataPacket
inline constexpr uint32_t kGpuCounterEvent = 52;          // GpuCounterEvent
inline constexpr uint32_t kGpuRenderStageEvent = 53;      // GpuRenderStageEvent
inline constexpr uint32_t kStreamingProfilePacket = 54;   // StreamingProfilePacket
inline constexpr uint32_t kGraphicsFrameEvent = 57;       // GraphicsFrameEvent
inline constexpr uint32_t kTimestampClockId = 58;         // uint32
inline constexpr uint32_t kTracePacketDefaults = 59;      // TracePacketDefaults
inline constexpr uint32_t kTrackDescriptor = 60;          // TrackDescriptor
inline constexpr uint32_t kModuleSymbols = 61;            // ModuleSymbols
inline constexpr uint32_t kVulkanMemoryEvent = 62;        // VulkanMemoryEvent
inline constexpr uint32_t kGpuLog = 63;                   // GpuLog
inline constexpr uint32_t kDeobfuscationMapping = 64;     // DeobfuscationMapping
inline constexpr uint32_t kVulkanApiEvent = 65;           // VulkanApiEvent
inline constexpr uint32_t kPerfSample = 66;               // PerfSample
inline constexpr uint32_t kCpuInfo = 67;                  // CpuInfo
inline constexpr uint32_t kSmapsPacket = 68;              // SmapsPacket
inline constexpr uint32_t kServiceEvent = 69;             // TracingServiceEvent
inline constexpr uint32_t kInitialDisplayState = 70;      // InitialDisplayState
inline constexpr uint32_t kGpuMemTotalEvent = 71;         // GpuMemTotalEvent
inline constexpr uint32_t kExtensionDescriptor = 72;      // ExtensionDescriptor
inline constexpr uint32_t kMemoryTrackerSnapshot = 73;    // MemoryTrackerSnapshot
inline constexpr uint32_t kStreamingAllocation = 74;      // StreamingAllocation
inline constexpr uint32_t kStreamingFree = 75;            // StreamingFree
inline constexpr uint32_t kFrameTimelineEvent = 76;        // FrameTimelineEvent
inline constexpr uint32_t kAndroidEnergyEstimationBreakdown =
    77;                                                         // AndroidEnergyEstimationBreakdown
inline constexpr uint32_t kUiState = 78;                        // UiState
inline constexpr uint32_t kTrustedPid = 79;                     // int32
inline constexpr uint32_t kTranslationTable = 82;               // TranslationTable
inline constexpr uint32_t kAndroidGameInterventionList = 83;    // AndroidGameInterventionList
inline constexpr uint32_t kStatsdAtom = 84;                     // StatsdAtom
inline constexpr uint32_t kAndroidSystemProperty = 86;          // AndroidSystemProperty
inline constexpr uint32_t kFirstPacketOnSequence = 87;          // bool
inline constexpr uint32_t kTraceUuid = 89;                      // TraceUuid
inline constexpr uint32_t kTrackEventRangeOfInterest = 90;      // TrackEventRangeOfInterest
inline constexpr uint32_t kEntityStateResidency = 91;           // EntityStateResidency
inline constexpr uint32_t kEtwEvents = 95;                      // EtwTraceEventBundle
inline constexpr uint32_t kMachineId = 98;                      // uint32
inline constexpr uint32_t kV8JsCode = 99;                       // V8JsCode
inline constexpr uint32_t kV8InternalCode = 100;                // V8InternalCode
inline constexpr uint32_t kV8WasmCode = 101;                    // V8WasmCode
inline constexpr uint32_t kV8RegExpCode = 102;                  // V8RegExpCode
inline constexpr uint32_t kV8CodeMove = 103;                    // V8CodeMove
inline constexpr uint32_t kRemoteClockSync = 107;               // RemoteClockSync
inline constexpr uint32_t kChromeTrigger = 109;                 // ChromeTrigger
inline constexpr uint32_t kPixelModemEvents = 110;              // PixelModemEvents
inline constexpr uint32_t kPixelModemTokenDatabase = 111;       // PixelModemTokenDatabase
inline constexpr uint32_t kCloneSnapshotTrigger = 113;          // Trigger
inline constexpr uint32_t kWinscopeExtensions = 112;            // WinscopeExtensions
inline constexpr uint32_t kKernelWakelockData = 115;            // KernelWakelockData
inline constexpr uint32_t kGenericKernelTaskStateEvent = 117;   // GenericKernelTaskStateEvent
inline constexpr uint32_t kGenericKernelCpuFreqEvent = 118;     // GenericKernelCpuFrequencyEvent
inline constexpr uint32_t kCpuPerUidData = 119;                 // CpuPerUidData
inline constexpr uint32_t kGenericKernelTaskRenameEvent = 120;  // GenericKernelTaskRenameEvent
inline constexpr uint32_t kGenericKernelProcessTree = 122;      // GenericKernelProcessTree
inline constexpr uint32_t kUserList = 123;                      // AndroidUserList
inline constexpr uint32_t kTraceProvenance = 124;               // TraceProvenance
inline constexpr uint32_t kProtovms = 125;                      // ProtoVms
inline constexpr uint32_t kTraceAttributes = 126;               // TraceAttributes
inline constexpr uint32_t kAndroidAflags = 127;                 // AndroidAflags
inline constexpr uint32_t kGpuInfo = 128;                       // GpuInfo
inline constexpr uint32_t kGenericGpuFrequencyEvent = 129;      // GenericGpuFrequencyEvent
inline constexpr uint32_t kInterruptInfo = 130;                 // InterruptInfo
inline constexpr uint32_t kArtProcessMetadata = 131;            // ArtProcessMetadata
inline constexpr uint32_t kJournaldEvent = 132;                 // SystemdJournaldEvent
inline constexpr uint32_t kZstdCompressedPackets = 133;         // bytes
inline constexpr uint32_t kConcurrentSessionEvent = 134;        // ConcurrentSessionEvent
inline constexpr uint32_t kStackSample = 135;                   // StackSample
inline constexpr uint32_t kForTesting = 900;                    // TestEvent
}  // namespace trace_packet

// TracePacketDefaults (protos/perfetto/trace/trace_packet_defaults.proto)
namespace trace_packet_defaults {
inline constexpr uint32_t kTrackEventDefaults = 11;    // TrackEventDefaults
inline constexpr uint32_t kPerfSampleDefaults = 12;    // PerfSampleDefaults
inline constexpr uint32_t kTimestampClockId = 58;      // uint32
inline constexpr uint32_t kV8CodeDefaults = 99;        // V8CodeDefaults
inline constexpr uint32_t kStackSampleDefaults = 100;  // StackSampleDefaults
}  // namespace trace_packet_defaults

// TrackEventDefaults (protos/perfetto/trace/track_event/track_event.proto)
namespace track_event_defaults {
inline constexpr uint32_t kTrackUuid = 11;                     // uint64
inline constexpr uint32_t kExtraCounterTrackUuids = 31;        // repeated uint64
inline constexpr uint32_t kExtraDoubleCounterTrackUuids = 45;  // repeated uint64
}  // namespace track_event_defaults

// ClockSnapshot (protos/perfetto/trace/clock_snapshot.proto)
namespace clock_snapshot {
inline constexpr uint32_t kClocks = 1;             // repeated Clock
inline constexpr uint32_t kPrimaryTraceClock = 2;  // enum BuiltinClock
}  // namespace clock_snapshot

// ClockSnapshot.Clock (protos/perfetto/trace/clock_snapshot.proto)
namespace clock_snapshot_clock {
inline constexpr uint32_t kClockId = 1;           // uint32
inline constexpr uint32_t kTimestamp = 2;         // uint64
inline constexpr uint32_t kIsIncremental = 3;     // bool
inline constexpr uint32_t kUnitMultiplierNs = 4;  // uint64
}  // namespace clock_snapshot_clock

// RemoteClockSync (protos/perfetto/trace/remote_clock_sync.proto)
namespace remote_clock_sync {
inline constexpr uint32_t kSyncedClocks = 1;  // repeated SyncedClocks
}  // namespace remote_clock_sync

// RemoteClockSync.SyncedClocks (protos/perfetto/trace/remote_clock_sync.proto)
namespace remote_clock_sync_synced_clocks {
inline constexpr uint32_t kClientClocks = 2;  // ClockSnapshot
inline constexpr uint32_t kHostClocks = 3;    // ClockSnapshot
}  // namespace remote_clock_sync_synced_clocks

// TraceUuid (protos/perfetto/trace/trace_uuid.proto)
namespace trace_uuid {
inline constexpr uint32_t kMsb = 1;  // int64
inline constexpr uint32_t kLsb = 2;  // int64
}  // namespace trace_uuid

// Trigger (protos/perfetto/trace/trigger.proto)
namespace trigger {
inline constexpr uint32_t kTriggerName = 1;         // string
inline constexpr uint32_t kProducerName = 2;        // string
inline constexpr uint32_t kTrustedProducerUid = 3;  // int32
inline constexpr uint32_t kStopDelayMs = 4;         // uint64
}  // namespace trigger

// FtraceEventBundle (protos/perfetto/trace/ftrace/ftrace_event_bundle.proto)
namespace ftrace_event_bundle {
inline constexpr uint32_t kCpu = 1;                          // uint32
inline constexpr uint32_t kEvent = 2;                        // repeated FtraceEvent
inline constexpr uint32_t kLostEvents = 3;                   // bool
inline constexpr uint32_t kCompactSched = 4;                 // CompactSched
inline constexpr uint32_t kFtraceClock = 5;                  // enum FtraceClock
inline constexpr uint32_t kFtraceTimestamp = 6;              // int64
inline constexpr uint32_t kBootTimestamp = 7;                // int64
inline constexpr uint32_t kError = 8;                        // repeated FtraceError
inline constexpr uint32_t kLastReadEventTimestamp = 9;       // uint64
inline constexpr uint32_t kPreviousBundleEndTimestamp = 10;  // uint64
inline constexpr uint32_t kGenericEventDescriptors = 11;     // repeated GenericEventDescriptor
inline constexpr uint32_t kBrokenAbiTracePage = 512;         // bytes
}  // namespace ftrace_event_bundle

// FtraceEventBundle.CompactSched (protos/perfetto/trace/ftrace/ftrace_event_bundle.proto)
namespace compact_sched {
inline constexpr uint32_t kSwitchTimestamp = 1;      // repeated uint64 (packed)
inline constexpr uint32_t kSwitchPrevState = 2;      // repeated int64 (packed)
inline constexpr uint32_t kSwitchNextPid = 3;        // repeated int32 (packed)
inline constexpr uint32_t kSwitchNextPrio = 4;       // repeated int32 (packed)
inline constexpr uint32_t kInternTable = 5;          // repeated string
inline constexpr uint32_t kSwitchNextCommIndex = 6;  // repeated uint32 (packed)
inline constexpr uint32_t kWakingTimestamp = 7;      // repeated uint64 (packed)
inline constexpr uint32_t kWakingPid = 8;            // repeated int32 (packed)
inline constexpr uint32_t kWakingTargetCpu = 9;      // repeated int32 (packed)
inline constexpr uint32_t kWakingPrio = 10;          // repeated int32 (packed)
inline constexpr uint32_t kWakingCommIndex = 11;     // repeated uint32 (packed)
inline constexpr uint32_t kWakingCommonFlags = 12;   // repeated uint32 (packed)
}  // namespace compact_sched

// FtraceEventBundle.FtraceError (protos/perfetto/trace/ftrace/ftrace_event_bundle.proto)
namespace ftrace_event_bundle_ftrace_error {
inline constexpr uint32_t kTimestamp = 1;  // uint64
inline constexpr uint32_t kStatus = 2;     // enum FtraceParseStatus
}  // namespace ftrace_event_bundle_ftrace_error

// FtraceEventBundle.GenericEventDescriptor (protos/perfetto/trace/ftrace/ftrace_event_bundle.proto)
namespace ftrace_event_bundle_generic_event_descriptor {
inline constexpr uint32_t kFieldId = 1;          // int32
inline constexpr uint32_t kEventDescriptor = 2;  // bytes
inline constexpr uint32_t kGroupName = 3;        // string
}  // namespace ftrace_event_bundle_generic_event_descriptor

// FtraceEvent (protos/perfetto/trace/ftrace/ftrace_event.proto)
namespace ftrace_event {
inline constexpr uint32_t kTimestamp = 1;    // uint64
inline constexpr uint32_t kPid = 2;          // uint32
inline constexpr uint32_t kCommonFlags = 5;  // uint32
// Event payloads (members of the `event` oneof). Every event id is listed in
// ftrace_descriptors.cc; these are the ones the importer handles specially.
inline constexpr uint32_t kPrint = 3;                        // PrintFtraceEvent
inline constexpr uint32_t kSchedSwitch = 4;                  // SchedSwitchFtraceEvent
inline constexpr uint32_t kCpuFrequency = 11;                // CpuFrequencyFtraceEvent
inline constexpr uint32_t kCpuFrequencyLimits = 12;          // CpuFrequencyLimitsFtraceEvent
inline constexpr uint32_t kCpuIdle = 13;                     // CpuIdleFtraceEvent
inline constexpr uint32_t kClockEnable = 14;                 // ClockEnableFtraceEvent
inline constexpr uint32_t kClockDisable = 15;                // ClockDisableFtraceEvent
inline constexpr uint32_t kClockSetRate = 16;                // ClockSetRateFtraceEvent
inline constexpr uint32_t kSchedWakeup = 17;                 // SchedWakeupFtraceEvent
inline constexpr uint32_t kSchedBlockedReason = 18;          // SchedBlockedReasonFtraceEvent
inline constexpr uint32_t kSchedCpuHotplug = 19;             // SchedCpuHotplugFtraceEvent
inline constexpr uint32_t kSchedWaking = 20;                 // SchedWakingFtraceEvent
inline constexpr uint32_t kIpiEntry = 21;                    // IpiEntryFtraceEvent
inline constexpr uint32_t kIpiExit = 22;                     // IpiExitFtraceEvent
inline constexpr uint32_t kSoftirqEntry = 24;                // SoftirqEntryFtraceEvent
inline constexpr uint32_t kSoftirqExit = 25;                 // SoftirqExitFtraceEvent
inline constexpr uint32_t kLowmemoryKill = 35;               // LowmemoryKillFtraceEvent
inline constexpr uint32_t kIrqHandlerEntry = 36;             // IrqHandlerEntryFtraceEvent
inline constexpr uint32_t kIrqHandlerExit = 37;              // IrqHandlerExitFtraceEvent
inline constexpr uint32_t kBinderTransaction = 50;           // BinderTransactionFtraceEvent
inline constexpr uint32_t kBinderTransactionReceived = 51;   // BinderTransactionReceivedFtraceEvent
inline constexpr uint32_t kBinderLock = 53;                  // BinderLockFtraceEvent
inline constexpr uint32_t kBinderLocked = 54;                // BinderLockedFtraceEvent
inline constexpr uint32_t kBinderUnlock = 55;                // BinderUnlockFtraceEvent
inline constexpr uint32_t kWorkqueueExecuteEnd = 57;         // WorkqueueExecuteEndFtraceEvent
inline constexpr uint32_t kWorkqueueExecuteStart = 58;       // WorkqueueExecuteStartFtraceEvent
inline constexpr uint32_t kSuspendResume = 113;              // SuspendResumeFtraceEvent
inline constexpr uint32_t kSchedWakeupNew = 114;             // SchedWakeupNewFtraceEvent
inline constexpr uint32_t kTaskNewtask = 235;                // TaskNewtaskFtraceEvent
inline constexpr uint32_t kTaskRename = 236;                 // TaskRenameFtraceEvent
inline constexpr uint32_t kSchedProcessExit = 238;           // SchedProcessExitFtraceEvent
inline constexpr uint32_t kSchedProcessFork = 239;           // SchedProcessForkFtraceEvent
inline constexpr uint32_t kSchedProcessFree = 240;           // SchedProcessFreeFtraceEvent
inline constexpr uint32_t kSchedProcessHang = 241;           // SchedProcessHangFtraceEvent
inline constexpr uint32_t kRssStat = 313;                    // RssStatFtraceEvent
inline constexpr uint32_t kIonHeapShrink = 314;              // IonHeapShrinkFtraceEvent
inline constexpr uint32_t kIonHeapGrow = 315;                // IonHeapGrowFtraceEvent
inline constexpr uint32_t kBinderTransactionAllocBuf = 323;  // BinderTransactionAllocBufFtraceEvent
inline constexpr uint32_t kOomScoreAdjUpdate = 326;          // OomScoreAdjUpdateFtraceEvent
inline constexpr uint32_t kGeneric = 327;                    // GenericFtraceEvent
inline constexpr uint32_t kMmEventRecord = 328;              // MmEventRecordFtraceEvent
inline constexpr uint32_t kMdssTracingMarkWrite = 80;        // TracingMarkWriteFtraceEvent (mdss.proto)
inline constexpr uint32_t kSysEnter = 329;                   // SysEnterFtraceEvent
inline constexpr uint32_t kSysExit = 330;                    // SysExitFtraceEvent
inline constexpr uint32_t kZero = 331;                       // ZeroFtraceEvent
inline constexpr uint32_t kGpuFrequency = 332;               // GpuFrequencyFtraceEvent
inline constexpr uint32_t kSdeTracingMarkWrite = 333;        // SdeTracingMarkWriteFtraceEvent
inline constexpr uint32_t kMarkVictim = 334;                 // MarkVictimFtraceEvent
inline constexpr uint32_t kThermalTemperature = 341;         // ThermalTemperatureFtraceEvent
inline constexpr uint32_t kCdevUpdate = 342;                 // CdevUpdateFtraceEvent
inline constexpr uint32_t kDpuTracingMarkWrite = 348;        // DpuTracingMarkWriteFtraceEvent
inline constexpr uint32_t kG2dTracingMarkWrite = 349;        // G2dTracingMarkWriteFtraceEvent
inline constexpr uint32_t kMaliTracingMarkWrite = 350;       // MaliTracingMarkWriteFtraceEvent
inline constexpr uint32_t kRssStatThrottled = 359;           // RssStatThrottledFtraceEvent
inline constexpr uint32_t kDmaFenceInit = 414;               // DmaFenceInitFtraceEvent
inline constexpr uint32_t kDmaFenceSignaled = 416;           // DmaFenceSignaledFtraceEvent
inline constexpr uint32_t kThermalExynosAcpmBulk = 506;      // ThermalExynosAcpmBulkFtraceEvent
inline constexpr uint32_t kKgslAdrenoCmdbatchSync = 536;     // KgslAdrenoCmdbatchSyncFtraceEvent
inline constexpr uint32_t kKgslAdrenoCmdbatchRetired = 537;  // KgslAdrenoCmdbatchRetiredFtraceEvent
inline constexpr uint32_t kKprobeEvent = 542;                // KprobeEvent
}  // namespace ftrace_event

// FtraceStats (protos/perfetto/trace/ftrace/ftrace_stats.proto)
namespace ftrace_stats {
inline constexpr uint32_t kPhase = 1;                      // enum Phase
inline constexpr uint32_t kCpuStats = 2;                   // repeated FtraceCpuStats
inline constexpr uint32_t kKernelSymbolsParsed = 3;        // uint32
inline constexpr uint32_t kKernelSymbolsMemKb = 4;         // uint32
inline constexpr uint32_t kAtraceErrors = 5;               // string
inline constexpr uint32_t kUnknownFtraceEvents = 6;        // repeated string
inline constexpr uint32_t kFailedFtraceEvents = 7;         // repeated string
inline constexpr uint32_t kPreserveFtraceBuffer = 8;       // bool
inline constexpr uint32_t kFtraceParseErrors = 9;          // repeated enum FtraceParseStatus
inline constexpr uint32_t kKprobeStats = 10;               // FtraceKprobeStats
inline constexpr uint32_t kCpuBufferSizePages = 11;        // uint32
inline constexpr uint32_t kCachedCpuBufferSizePages = 12;  // uint32
inline constexpr uint32_t kExclusiveFeatureError = 13;     // string
}  // namespace ftrace_stats

// FtraceCpuStats (protos/perfetto/trace/ftrace/ftrace_stats.proto)
namespace ftrace_cpu_stats {
inline constexpr uint32_t kCpu = 1;            // uint64
inline constexpr uint32_t kEntries = 2;        // uint64
inline constexpr uint32_t kOverrun = 3;        // uint64
inline constexpr uint32_t kCommitOverrun = 4;  // uint64
inline constexpr uint32_t kBytesRead = 5;      // uint64
inline constexpr uint32_t kOldestEventTs = 6;  // double
inline constexpr uint32_t kNowTs = 7;          // double
inline constexpr uint32_t kDroppedEvents = 8;  // uint64
inline constexpr uint32_t kReadEvents = 9;     // uint64
}  // namespace ftrace_cpu_stats

// FtraceKprobeStats (protos/perfetto/trace/ftrace/ftrace_stats.proto)
namespace ftrace_kprobe_stats {
inline constexpr uint32_t kHits = 1;    // int64
inline constexpr uint32_t kMisses = 2;  // int64
}  // namespace ftrace_kprobe_stats

// SchedSwitchFtraceEvent (protos/perfetto/trace/ftrace/sched.proto)
namespace sched_switch_ftrace_event {
inline constexpr uint32_t kPrevComm = 1;   // string
inline constexpr uint32_t kPrevPid = 2;    // int32
inline constexpr uint32_t kPrevPrio = 3;   // int32
inline constexpr uint32_t kPrevState = 4;  // int64
inline constexpr uint32_t kNextComm = 5;   // string
inline constexpr uint32_t kNextPid = 6;    // int32
inline constexpr uint32_t kNextPrio = 7;   // int32
}  // namespace sched_switch_ftrace_event

// SchedWakingFtraceEvent (protos/perfetto/trace/ftrace/sched.proto)
namespace sched_waking_ftrace_event {
inline constexpr uint32_t kComm = 1;       // string
inline constexpr uint32_t kPid = 2;        // int32
inline constexpr uint32_t kPrio = 3;       // int32
inline constexpr uint32_t kSuccess = 4;    // int32
inline constexpr uint32_t kTargetCpu = 5;  // int32
}  // namespace sched_waking_ftrace_event

// SchedWakeupFtraceEvent (protos/perfetto/trace/ftrace/sched.proto)
namespace sched_wakeup_ftrace_event {
inline constexpr uint32_t kComm = 1;       // string
inline constexpr uint32_t kPid = 2;        // int32
inline constexpr uint32_t kPrio = 3;       // int32
inline constexpr uint32_t kSuccess = 4;    // int32
inline constexpr uint32_t kTargetCpu = 5;  // int32
}  // namespace sched_wakeup_ftrace_event

// SchedWakeupNewFtraceEvent (protos/perfetto/trace/ftrace/sched.proto)
namespace sched_wakeup_new_ftrace_event {
inline constexpr uint32_t kComm = 1;       // string
inline constexpr uint32_t kPid = 2;        // int32
inline constexpr uint32_t kPrio = 3;       // int32
inline constexpr uint32_t kSuccess = 4;    // int32
inline constexpr uint32_t kTargetCpu = 5;  // int32
}  // namespace sched_wakeup_new_ftrace_event

// SchedProcessFreeFtraceEvent (protos/perfetto/trace/ftrace/sched.proto)
namespace sched_process_free_ftrace_event {
inline constexpr uint32_t kComm = 1;  // string
inline constexpr uint32_t kPid = 2;   // int32
inline constexpr uint32_t kPrio = 3;  // int32
}  // namespace sched_process_free_ftrace_event

// TaskNewtaskFtraceEvent (protos/perfetto/trace/ftrace/task.proto)
namespace task_newtask_ftrace_event {
inline constexpr uint32_t kPid = 1;          // int32
inline constexpr uint32_t kComm = 2;         // string
inline constexpr uint32_t kCloneFlags = 3;   // uint64
inline constexpr uint32_t kOomScoreAdj = 4;  // int32
}  // namespace task_newtask_ftrace_event

// TaskRenameFtraceEvent (protos/perfetto/trace/ftrace/task.proto)
namespace task_rename_ftrace_event {
inline constexpr uint32_t kPid = 1;          // int32
inline constexpr uint32_t kOldcomm = 2;      // string
inline constexpr uint32_t kNewcomm = 3;      // string
inline constexpr uint32_t kOomScoreAdj = 4;  // int32
}  // namespace task_rename_ftrace_event

// PrintFtraceEvent (protos/perfetto/trace/ftrace/ftrace.proto)
namespace thermal_exynos_acpm_bulk_ftrace_event {
inline constexpr uint32_t kTimestamp = 11;  // uint64: when ACPM sampled, on the trace clock
}  // namespace thermal_exynos_acpm_bulk_ftrace_event

namespace kgsl_adreno_cmdbatch_sync_ftrace_event {
inline constexpr uint32_t kTimestamp = 2;  // uint32: the batch's number in its context
inline constexpr uint32_t kTicks = 3;      // uint64: GPU always-on counter at this event
}  // namespace kgsl_adreno_cmdbatch_sync_ftrace_event

namespace kgsl_adreno_cmdbatch_retired_ftrace_event {
inline constexpr uint32_t kTimestamp = 2;  // uint32
inline constexpr uint32_t kStart = 6;      // uint64: GPU ticks when the batch started
}  // namespace kgsl_adreno_cmdbatch_retired_ftrace_event

namespace print_ftrace_event {
inline constexpr uint32_t kIp = 1;   // uint64
inline constexpr uint32_t kBuf = 2;  // string
}  // namespace print_ftrace_event

// GenericFtraceEvent (protos/perfetto/trace/ftrace/generic.proto)
namespace generic_ftrace_event {
inline constexpr uint32_t kEventName = 1;  // string
inline constexpr uint32_t kField = 2;      // repeated Field
}  // namespace generic_ftrace_event

// GenericFtraceEvent.Field (protos/perfetto/trace/ftrace/generic.proto)
namespace generic_ftrace_event_field {
inline constexpr uint32_t kName = 1;       // string
inline constexpr uint32_t kStrValue = 3;   // string
inline constexpr uint32_t kIntValue = 4;   // int64
inline constexpr uint32_t kUintValue = 5;  // uint64
}  // namespace generic_ftrace_event_field

// TraceStats (protos/perfetto/common/trace_stats.proto)
namespace trace_stats {
inline constexpr uint32_t kBufferStats = 1;                // repeated BufferStats
inline constexpr uint32_t kProducersConnected = 2;         // uint32
inline constexpr uint32_t kProducersSeen = 3;              // uint64
inline constexpr uint32_t kDataSourcesRegistered = 4;      // uint32
inline constexpr uint32_t kDataSourcesSeen = 5;            // uint64
inline constexpr uint32_t kTracingSessions = 6;            // uint32
inline constexpr uint32_t kTotalBuffers = 7;               // uint32
inline constexpr uint32_t kChunksDiscarded = 8;            // uint64
inline constexpr uint32_t kPatchesDiscarded = 9;           // uint64
inline constexpr uint32_t kInvalidPackets = 10;            // uint64
inline constexpr uint32_t kFilterStats = 11;               // FilterStats
inline constexpr uint32_t kFlushesRequested = 12;          // uint64
inline constexpr uint32_t kFlushesSucceeded = 13;          // uint64
inline constexpr uint32_t kFlushesFailed = 14;             // uint64
inline constexpr uint32_t kFinalFlushOutcome = 15;         // enum FinalFlushOutcome
inline constexpr uint32_t kChunkPayloadHistogramDef = 17;  // repeated int64
inline constexpr uint32_t kWriterStats = 18;               // repeated WriterStats
}  // namespace trace_stats

// TraceStats.BufferStats (protos/perfetto/common/trace_stats.proto)
namespace trace_stats_buffer_stats {
inline constexpr uint32_t kBytesWritten = 1;                // uint64
inline constexpr uint32_t kChunksWritten = 2;               // uint64
inline constexpr uint32_t kChunksOverwritten = 3;           // uint64
inline constexpr uint32_t kWriteWrapCount = 4;              // uint64
inline constexpr uint32_t kPatchesSucceeded = 5;            // uint64
inline constexpr uint32_t kPatchesFailed = 6;               // uint64
inline constexpr uint32_t kReadaheadsSucceeded = 7;         // uint64
inline constexpr uint32_t kReadaheadsFailed = 8;            // uint64
inline constexpr uint32_t kAbiViolations = 9;               // uint64
inline constexpr uint32_t kChunksRewritten = 10;            // uint64
inline constexpr uint32_t kChunksCommittedOutOfOrder = 11;  // uint64
inline constexpr uint32_t kBufferSize = 12;                 // uint64
inline constexpr uint32_t kBytesOverwritten = 13;           // uint64
inline constexpr uint32_t kBytesRead = 14;                  // uint64
inline constexpr uint32_t kPaddingBytesWritten = 15;        // uint64
inline constexpr uint32_t kPaddingBytesCleared = 16;        // uint64
inline constexpr uint32_t kChunksRead = 17;                 // uint64
inline constexpr uint32_t kChunksDiscarded = 18;            // uint64
inline constexpr uint32_t kTraceWriterPacketLoss = 19;      // uint64
inline constexpr uint32_t kChunksRelocated = 20;            // uint64
}  // namespace trace_stats_buffer_stats

// TraceStats.WriterStats (protos/perfetto/common/trace_stats.proto)
namespace trace_stats_writer_stats {
inline constexpr uint32_t kSequenceId = 1;                   // uint64
inline constexpr uint32_t kChunkPayloadHistogramCounts = 2;  // repeated uint64 (packed)
inline constexpr uint32_t kChunkPayloadHistogramSum = 3;     // repeated int64 (packed)
inline constexpr uint32_t kBuffer = 4;                       // uint32
}  // namespace trace_stats_writer_stats

// TraceStats.FilterStats (protos/perfetto/common/trace_stats.proto)
namespace trace_stats_filter_stats {
inline constexpr uint32_t kInputPackets = 1;              // uint64
inline constexpr uint32_t kInputBytes = 2;                // uint64
inline constexpr uint32_t kOutputBytes = 3;               // uint64
inline constexpr uint32_t kErrors = 4;                    // uint64
inline constexpr uint32_t kTimeTakenNs = 5;               // uint64
inline constexpr uint32_t kBytesDiscardedPerBuffer = 20;  // repeated uint64
}  // namespace trace_stats_filter_stats

// ProcessTree (protos/perfetto/trace/ps/process_tree.proto)
namespace process_tree {
inline constexpr uint32_t kProcesses = 1;               // repeated Process
inline constexpr uint32_t kThreads = 2;                 // repeated Thread
inline constexpr uint32_t kCollectionEndTimestamp = 3;  // uint64
}  // namespace process_tree

// ProcessTree.Process (protos/perfetto/trace/ps/process_tree.proto)
namespace process_tree_process {
inline constexpr uint32_t kPid = 1;                   // int32
inline constexpr uint32_t kPpid = 2;                  // int32
inline constexpr uint32_t kCmdline = 3;               // repeated string
inline constexpr uint32_t kUid = 5;                   // int32
inline constexpr uint32_t kNspid = 6;                 // repeated int32
inline constexpr uint32_t kProcessStartFromBoot = 7;  // uint64
inline constexpr uint32_t kIsKthread = 8;             // bool
inline constexpr uint32_t kCmdlineIsComm = 9;         // bool
}  // namespace process_tree_process

// ProcessTree.Thread (protos/perfetto/trace/ps/process_tree.proto)
namespace process_tree_thread {
inline constexpr uint32_t kTid = 1;    // int32
inline constexpr uint32_t kName = 2;   // string
inline constexpr uint32_t kTgid = 3;   // int32
inline constexpr uint32_t kNstid = 4;  // repeated int32
}  // namespace process_tree_thread

// ProcessStats (protos/perfetto/trace/ps/process_stats.proto)
namespace process_stats {
inline constexpr uint32_t kProcesses = 1;               // repeated Process
inline constexpr uint32_t kCollectionEndTimestamp = 2;  // uint64
}  // namespace process_stats

// ProcessStats.Process (protos/perfetto/trace/ps/process_stats.proto)
namespace process_stats_process {
inline constexpr uint32_t kPid = 1;                        // int32
inline constexpr uint32_t kVmSizeKb = 2;                   // uint64
inline constexpr uint32_t kVmRssKb = 3;                    // uint64
inline constexpr uint32_t kRssAnonKb = 4;                  // uint64
inline constexpr uint32_t kRssFileKb = 5;                  // uint64
inline constexpr uint32_t kRssShmemKb = 6;                 // uint64
inline constexpr uint32_t kVmSwapKb = 7;                   // uint64
inline constexpr uint32_t kVmLockedKb = 8;                 // uint64
inline constexpr uint32_t kVmHwmKb = 9;                    // uint64
inline constexpr uint32_t kOomScoreAdj = 10;               // int64
inline constexpr uint32_t kThreads = 11;                   // repeated Thread
inline constexpr uint32_t kIsPeakRssResettable = 12;       // bool
inline constexpr uint32_t kChromePrivateFootprintKb = 13;  // uint32
inline constexpr uint32_t kChromePeakResidentSetKb = 14;   // uint32
inline constexpr uint32_t kFds = 15;                       // repeated FDInfo
inline constexpr uint32_t kSmrRssKb = 16;                  // uint64
inline constexpr uint32_t kSmrPssKb = 17;                  // uint64
inline constexpr uint32_t kSmrPssAnonKb = 18;              // uint64
inline constexpr uint32_t kSmrPssFileKb = 19;              // uint64
inline constexpr uint32_t kSmrPssShmemKb = 20;             // uint64
inline constexpr uint32_t kRuntimeUserMode = 21;           // uint64
inline constexpr uint32_t kRuntimeKernelMode = 22;         // uint64
inline constexpr uint32_t kSmrSwapPssKb = 23;              // uint64
inline constexpr uint32_t kDmabufRssKb = 24;               // uint64
}  // namespace process_stats_process

// ProcessStats.Thread (protos/perfetto/trace/ps/process_stats.proto)
namespace process_stats_thread {
inline constexpr uint32_t kTid = 1;  // int32
}  // namespace process_stats_thread

// ProcessStats.FDInfo (protos/perfetto/trace/ps/process_stats.proto)
namespace process_stats_fd_info {
inline constexpr uint32_t kFd = 1;    // uint64
inline constexpr uint32_t kPath = 2;  // string
}  // namespace process_stats_fd_info

// SysStats (protos/perfetto/trace/sys_stats/sys_stats.proto)
namespace sys_stats {
inline constexpr uint32_t kMeminfo = 1;                 // repeated MeminfoValue
inline constexpr uint32_t kVmstat = 2;                  // repeated VmstatValue
inline constexpr uint32_t kCpuStat = 3;                 // repeated CpuTimes
inline constexpr uint32_t kNumForks = 4;                // uint64
inline constexpr uint32_t kNumIrqTotal = 5;             // uint64
inline constexpr uint32_t kNumIrq = 6;                  // repeated InterruptCount
inline constexpr uint32_t kNumSoftirqTotal = 7;         // uint64
inline constexpr uint32_t kNumSoftirq = 8;              // repeated InterruptCount
inline constexpr uint32_t kCollectionEndTimestamp = 9;  // uint64
inline constexpr uint32_t kDevfreq = 10;                // repeated DevfreqValue
inline constexpr uint32_t kCpufreqKhz = 11;             // repeated uint32
inline constexpr uint32_t kBuddyInfo = 12;              // repeated BuddyInfo
inline constexpr uint32_t kDiskStat = 13;               // repeated DiskStat
inline constexpr uint32_t kPsi = 14;                    // repeated PsiSample
inline constexpr uint32_t kThermalZone = 15;            // repeated ThermalZone
inline constexpr uint32_t kCpuidleState = 16;           // repeated CpuIdleState
inline constexpr uint32_t kGpufreqMhz = 17;             // repeated uint64
inline constexpr uint32_t kSlabInfo = 18;               // repeated SlabInfo
}  // namespace sys_stats

// SysStats.MeminfoValue (protos/perfetto/trace/sys_stats/sys_stats.proto)
namespace sys_stats_meminfo_value {
inline constexpr uint32_t kKey = 1;    // enum MeminfoCounters
inline constexpr uint32_t kValue = 2;  // uint64
}  // namespace sys_stats_meminfo_value

// SysStats.VmstatValue (protos/perfetto/trace/sys_stats/sys_stats.proto)
namespace sys_stats_vmstat_value {
inline constexpr uint32_t kKey = 1;    // enum VmstatCounters
inline constexpr uint32_t kValue = 2;  // uint64
}  // namespace sys_stats_vmstat_value

// SysStats.CpuTimes (protos/perfetto/trace/sys_stats/sys_stats.proto)
namespace sys_stats_cpu_times {
inline constexpr uint32_t kCpuId = 1;         // uint32
inline constexpr uint32_t kUserNs = 2;        // uint64
inline constexpr uint32_t kUserNiceNs = 3;    // uint64
inline constexpr uint32_t kSystemModeNs = 4;  // uint64
inline constexpr uint32_t kIdleNs = 5;        // uint64
inline constexpr uint32_t kIoWaitNs = 6;      // uint64
inline constexpr uint32_t kIrqNs = 7;         // uint64
inline constexpr uint32_t kSoftirqNs = 8;     // uint64
inline constexpr uint32_t kStealNs = 9;       // uint64
}  // namespace sys_stats_cpu_times

// SysStats.InterruptCount (protos/perfetto/trace/sys_stats/sys_stats.proto)
namespace sys_stats_interrupt_count {
inline constexpr uint32_t kIrq = 1;    // int32
inline constexpr uint32_t kCount = 2;  // uint64
}  // namespace sys_stats_interrupt_count

// SysStats.DevfreqValue (protos/perfetto/trace/sys_stats/sys_stats.proto)
namespace sys_stats_devfreq_value {
inline constexpr uint32_t kKey = 1;    // string
inline constexpr uint32_t kValue = 2;  // uint64
}  // namespace sys_stats_devfreq_value

// SysStats.BuddyInfo (protos/perfetto/trace/sys_stats/sys_stats.proto)
namespace sys_stats_buddy_info {
inline constexpr uint32_t kNode = 1;        // string
inline constexpr uint32_t kZone = 2;        // string
inline constexpr uint32_t kOrderPages = 3;  // repeated uint32
}  // namespace sys_stats_buddy_info

// SysStats.DiskStat (protos/perfetto/trace/sys_stats/sys_stats.proto)
namespace sys_stats_disk_stat {
inline constexpr uint32_t kDeviceName = 1;      // string
inline constexpr uint32_t kReadSectors = 2;     // uint64
inline constexpr uint32_t kReadTimeMs = 3;      // uint64
inline constexpr uint32_t kWriteSectors = 4;    // uint64
inline constexpr uint32_t kWriteTimeMs = 5;     // uint64
inline constexpr uint32_t kDiscardSectors = 6;  // uint64
inline constexpr uint32_t kDiscardTimeMs = 7;   // uint64
inline constexpr uint32_t kFlushCount = 8;      // uint64
inline constexpr uint32_t kFlushTimeMs = 9;     // uint64
}  // namespace sys_stats_disk_stat

// SysStats.PsiSample (protos/perfetto/trace/sys_stats/sys_stats.proto)
namespace sys_stats_psi_sample {
inline constexpr uint32_t kResource = 1;  // enum PsiResource
inline constexpr uint32_t kTotalNs = 2;   // uint64
}  // namespace sys_stats_psi_sample

// SysStats.ThermalZone (protos/perfetto/trace/sys_stats/sys_stats.proto)
namespace sys_stats_thermal_zone {
inline constexpr uint32_t kName = 1;  // string
inline constexpr uint32_t kTemp = 2;  // uint64
inline constexpr uint32_t kType = 3;  // string
}  // namespace sys_stats_thermal_zone

// SysStats.CpuIdleState (protos/perfetto/trace/sys_stats/sys_stats.proto)
namespace sys_stats_cpu_idle_state {
inline constexpr uint32_t kCpuId = 1;              // uint32
inline constexpr uint32_t kCpuidleStateEntry = 2;  // repeated CpuIdleStateEntry
}  // namespace sys_stats_cpu_idle_state

// SysStats.CpuIdleStateEntry (protos/perfetto/trace/sys_stats/sys_stats.proto)
namespace sys_stats_cpu_idle_state_entry {
inline constexpr uint32_t kState = 1;       // string
inline constexpr uint32_t kDurationUs = 2;  // uint64
}  // namespace sys_stats_cpu_idle_state_entry

// SysStats.SlabInfo (protos/perfetto/trace/sys_stats/sys_stats.proto)
namespace sys_stats_slab_info {
inline constexpr uint32_t kName = 1;          // string
inline constexpr uint32_t kPagesPerSlab = 2;  // uint32
inline constexpr uint32_t kNumSlabs = 3;      // uint32
}  // namespace sys_stats_slab_info

// SystemInfo (protos/perfetto/common/system_info.proto)
namespace system_info {
inline constexpr uint32_t kUtsname = 1;                     // Utsname
inline constexpr uint32_t kAndroidBuildFingerprint = 2;     // string
inline constexpr uint32_t kHz = 3;                          // int64
inline constexpr uint32_t kTracingServiceVersion = 4;       // string
inline constexpr uint32_t kAndroidSdkVersion = 5;           // uint64
inline constexpr uint32_t kPageSize = 6;                    // uint32
inline constexpr uint32_t kTimezoneOffMins = 7;             // int32
inline constexpr uint32_t kNumCpus = 8;                     // uint32
inline constexpr uint32_t kAndroidSocModel = 9;             // string
inline constexpr uint32_t kAndroidHardwareRevision = 10;    // string
inline constexpr uint32_t kAndroidStorageModel = 11;        // string
inline constexpr uint32_t kAndroidRamModel = 12;            // string
inline constexpr uint32_t kAndroidGuestSocModel = 13;       // string
inline constexpr uint32_t kAndroidDeviceManufacturer = 14;  // string
inline constexpr uint32_t kAndroidSerialConsole = 15;       // string
inline constexpr uint32_t kSystemRamBytes = 16;             // uint64
inline constexpr uint32_t kMachineName = 17;                // string
}  // namespace system_info

// Utsname (protos/perfetto/common/system_info.proto)
namespace utsname {
inline constexpr uint32_t kSysname = 1;  // string
inline constexpr uint32_t kVersion = 2;  // string
inline constexpr uint32_t kRelease = 3;  // string
inline constexpr uint32_t kMachine = 4;  // string
}  // namespace utsname

// CpuInfo (protos/perfetto/trace/system_info/cpu_info.proto)
namespace cpu_info {
inline constexpr uint32_t kCpus = 1;  // repeated Cpu
}  // namespace cpu_info

// CpuInfo.Cpu (protos/perfetto/trace/system_info/cpu_info.proto)
namespace cpu_info_cpu {
inline constexpr uint32_t kProcessor = 1;      // string
inline constexpr uint32_t kFrequencies = 2;    // repeated uint32
inline constexpr uint32_t kCapacity = 3;       // uint32
inline constexpr uint32_t kArmIdentifier = 4;  // ArmCpuIdentifier
inline constexpr uint32_t kFeatures = 5;       // uint64
}  // namespace cpu_info_cpu

// CpuInfo.ArmCpuIdentifier (protos/perfetto/trace/system_info/cpu_info.proto)
namespace cpu_info_arm_cpu_identifier {
inline constexpr uint32_t kImplementer = 1;   // uint32
inline constexpr uint32_t kArchitecture = 2;  // uint32
inline constexpr uint32_t kVariant = 3;       // uint32
inline constexpr uint32_t kPart = 4;          // uint32
inline constexpr uint32_t kRevision = 5;      // uint32
}  // namespace cpu_info_arm_cpu_identifier

// TraceConfig (protos/perfetto/config/trace_config.proto)
namespace trace_config {
inline constexpr uint32_t kBuffers = 1;                         // repeated BufferConfig
inline constexpr uint32_t kDataSources = 2;                     // repeated DataSource
inline constexpr uint32_t kDurationMs = 3;                      // uint32
inline constexpr uint32_t kEnableExtraGuardrails = 4;           // bool
inline constexpr uint32_t kLockdownMode = 5;                    // enum LockdownModeOperation
inline constexpr uint32_t kProducers = 6;                       // repeated ProducerConfig
inline constexpr uint32_t kStatsdMetadata = 7;                  // StatsdMetadata
inline constexpr uint32_t kWriteIntoFile = 8;                   // bool
inline constexpr uint32_t kFileWritePeriodMs = 9;               // uint32
inline constexpr uint32_t kMaxFileSizeBytes = 10;               // uint64
inline constexpr uint32_t kGuardrailOverrides = 11;             // GuardrailOverrides
inline constexpr uint32_t kDeferredStart = 12;                  // bool
inline constexpr uint32_t kFlushPeriodMs = 13;                  // uint32
inline constexpr uint32_t kFlushTimeoutMs = 14;                 // uint32
inline constexpr uint32_t kNotifyTraceur = 16;                  // bool
inline constexpr uint32_t kTriggerConfig = 17;                  // TriggerConfig
inline constexpr uint32_t kActivateTriggers = 18;               // repeated string
inline constexpr uint32_t kAllowUserBuildTracing = 19;          // bool
inline constexpr uint32_t kBuiltinDataSources = 20;             // BuiltinDataSource
inline constexpr uint32_t kIncrementalStateConfig = 21;         // IncrementalStateConfig
inline constexpr uint32_t kUniqueSessionName = 22;              // string
inline constexpr uint32_t kDataSourceStopTimeoutMs = 23;        // uint32
inline constexpr uint32_t kCompressionType = 24;                // enum CompressionType
inline constexpr uint32_t kIncidentReportConfig = 25;           // IncidentReportConfig
inline constexpr uint32_t kTraceUuidMsb = 27;                   // int64
inline constexpr uint32_t kTraceUuidLsb = 28;                   // int64
inline constexpr uint32_t kOutputPath = 29;                     // string
inline constexpr uint32_t kBugreportScore = 30;                 // int32
inline constexpr uint32_t kStatsdLogging = 31;                  // enum StatsdLogging
inline constexpr uint32_t kTraceFilter = 33;                    // TraceFilter
inline constexpr uint32_t kAndroidReportConfig = 34;            // AndroidReportConfig
inline constexpr uint32_t kCmdTraceStartDelay = 35;             // CmdTraceStartDelay
inline constexpr uint32_t kPreferSuspendClockForDuration = 36;  // bool
inline constexpr uint32_t kBugreportFilename = 38;              // string
inline constexpr uint32_t kSessionSemaphores = 39;              // repeated SessionSemaphore
inline constexpr uint32_t kPriorityBoost = 40;                  // PriorityBoostConfig
inline constexpr uint32_t kExclusivePrio = 41;                  // uint32
inline constexpr uint32_t kTraceAllMachines = 43;               // bool
inline constexpr uint32_t kWriteFlushMode = 44;                 // enum WriteFlushMode
inline constexpr uint32_t kFflushPostWrite = 45;                // enum FFlushMode
inline constexpr uint32_t kCompression = 47;                    // CompressionConfig
inline constexpr uint32_t kTraceAttributes = 48;                // TraceAttributes
}  // namespace trace_config

// TraceConfig.BufferConfig (protos/perfetto/config/trace_config.proto)
namespace trace_config_buffer_config {
inline constexpr uint32_t kSizeKb = 1;            // uint32
inline constexpr uint32_t kFillPolicy = 4;        // enum FillPolicy
inline constexpr uint32_t kTransferOnClone = 5;   // bool
inline constexpr uint32_t kClearBeforeClone = 6;  // bool
inline constexpr uint32_t kName = 7;              // string
inline constexpr uint32_t kExperimentalMode = 8;  // enum ExperimentalMode
}  // namespace trace_config_buffer_config

// TraceConfig.DataSource (protos/perfetto/config/trace_config.proto)
namespace trace_config_data_source {
inline constexpr uint32_t kConfig = 1;                   // DataSourceConfig
inline constexpr uint32_t kProducerNameFilter = 2;       // repeated string
inline constexpr uint32_t kProducerNameRegexFilter = 3;  // repeated string
inline constexpr uint32_t kMachineNameFilter = 4;        // repeated string
}  // namespace trace_config_data_source

// TraceConfig.BuiltinDataSource (protos/perfetto/config/trace_config.proto)
namespace trace_config_builtin_data_source {
inline constexpr uint32_t kDisableClockSnapshotting = 1;        // bool
inline constexpr uint32_t kDisableTraceConfig = 2;              // bool
inline constexpr uint32_t kDisableSystemInfo = 3;               // bool
inline constexpr uint32_t kDisableServiceEvents = 4;            // bool
inline constexpr uint32_t kPrimaryTraceClock = 5;               // enum BuiltinClock
inline constexpr uint32_t kSnapshotIntervalMs = 6;              // uint32
inline constexpr uint32_t kPreferSuspendClockForSnapshot = 7;   // bool
inline constexpr uint32_t kDisableChunkUsageHistograms = 8;     // bool
inline constexpr uint32_t kDisableExtensionDescriptors = 9;     // bool
inline constexpr uint32_t kEnableConcurrentSessionEvents = 10;  // bool
}  // namespace trace_config_builtin_data_source

// TraceConfig.TriggerConfig (protos/perfetto/config/trace_config.proto)
namespace trace_config_trigger_config {
inline constexpr uint32_t kTriggerMode = 1;                  // enum TriggerMode
inline constexpr uint32_t kTriggers = 2;                     // repeated Trigger
inline constexpr uint32_t kTriggerTimeoutMs = 3;             // uint32
inline constexpr uint32_t kUseCloneSnapshotIfAvailable = 5;  // bool
}  // namespace trace_config_trigger_config

// TraceConfig.TriggerConfig.Trigger (protos/perfetto/config/trace_config.proto)
namespace trace_config_trigger_config_trigger {
inline constexpr uint32_t kName = 1;               // string
inline constexpr uint32_t kProducerNameRegex = 2;  // string
inline constexpr uint32_t kStopDelayMs = 3;        // uint32
inline constexpr uint32_t kMaxPer24H = 4;          // uint32
inline constexpr uint32_t kSkipProbability = 5;    // double
}  // namespace trace_config_trigger_config_trigger

// DataSourceConfig (protos/perfetto/config/data_source_config.proto)
namespace data_source_config {
inline constexpr uint32_t kName = 1;                        // string
inline constexpr uint32_t kTargetBuffer = 2;                // uint32
inline constexpr uint32_t kTraceDurationMs = 3;             // uint32
inline constexpr uint32_t kTracingSessionId = 4;            // uint64
inline constexpr uint32_t kEnableExtraGuardrails = 6;       // bool
inline constexpr uint32_t kStopTimeoutMs = 7;               // uint32
inline constexpr uint32_t kSessionInitiator = 8;            // enum SessionInitiator
inline constexpr uint32_t kBufferExhaustedPolicy = 9;       // enum BufferExhaustedPolicy
inline constexpr uint32_t kPriorityBoost = 10;              // PriorityBoostConfig
inline constexpr uint32_t kTargetBufferName = 11;           // string
inline constexpr uint32_t kProtovmConfig = 12;              // ProtoVmConfig
inline constexpr uint32_t kFtraceConfig = 100;              // FtraceConfig
inline constexpr uint32_t kChromeConfig = 101;              // ChromeConfig
inline constexpr uint32_t kInodeFileConfig = 102;           // InodeFileConfig
inline constexpr uint32_t kProcessStatsConfig = 103;        // ProcessStatsConfig
inline constexpr uint32_t kSysStatsConfig = 104;            // SysStatsConfig
inline constexpr uint32_t kHeapprofdConfig = 105;           // HeapprofdConfig
inline constexpr uint32_t kAndroidPowerConfig = 106;        // AndroidPowerConfig
inline constexpr uint32_t kAndroidLogConfig = 107;          // AndroidLogConfig
inline constexpr uint32_t kGpuCounterConfig = 108;          // GpuCounterConfig
inline constexpr uint32_t kPackagesListConfig = 109;        // PackagesListConfig
inline constexpr uint32_t kJavaHprofConfig = 110;           // JavaHprofConfig
inline constexpr uint32_t kPerfEventConfig = 111;           // PerfEventConfig
inline constexpr uint32_t kVulkanMemoryConfig = 112;        // VulkanMemoryConfig
inline constexpr uint32_t kTrackEventConfig = 113;          // TrackEventConfig
inline constexpr uint32_t kAndroidPolledStateConfig = 114;  // AndroidPolledStateConfig
inline constexpr uint32_t kInterceptorConfig = 115;         // InterceptorConfig
inline constexpr uint32_t kAndroidGameInterventionListConfig =
    116;                                                       // AndroidGameInterventionListConfig
inline constexpr uint32_t kStatsdTracingConfig = 117;          // StatsdTracingConfig
inline constexpr uint32_t kAndroidSystemPropertyConfig = 118;  // AndroidSystemPropertyConfig
inline constexpr uint32_t kSystemInfoConfig = 119;             // SystemInfoConfig
inline constexpr uint32_t kNetworkPacketTraceConfig = 120;     // NetworkPacketTraceConfig
inline constexpr uint32_t kSurfaceflingerLayersConfig = 121;   // SurfaceFlingerLayersConfig
inline constexpr uint32_t kPreferSuspendClockForDuration = 122;  // bool
inline constexpr uint32_t kSurfaceflingerTransactionsConfig =
    123;                                                        // SurfaceFlingerTransactionsConfig
inline constexpr uint32_t kAndroidSdkSyspropGuardConfig = 124;  // AndroidSdkSyspropGuardConfig
inline constexpr uint32_t kEtwConfig = 125;                     // EtwConfig
inline constexpr uint32_t kProtologConfig = 126;                // ProtoLogConfig
inline constexpr uint32_t kV8Config = 127;                      // V8Config
inline constexpr uint32_t kAndroidInputEventConfig = 128;       // AndroidInputEventConfig
inline constexpr uint32_t kPixelModemConfig = 129;              // PixelModemConfig
inline constexpr uint32_t kWindowmanagerConfig = 130;           // WindowManagerConfig
inline constexpr uint32_t kChromiumSystemMetrics = 131;         // ChromiumSystemMetricsConfig
inline constexpr uint32_t kKernelWakelocksConfig = 132;         // KernelWakelocksConfig
inline constexpr uint32_t kGpuRenderstagesConfig = 133;         // GpuRenderStagesConfig
inline constexpr uint32_t kChromiumHistogramSamples = 134;      // ChromiumHistogramSamplesConfig
inline constexpr uint32_t kAppWakelocksConfig = 135;            // AppWakelocksConfig
inline constexpr uint32_t kFrozenFtraceConfig = 136;            // FrozenFtraceConfig
inline constexpr uint32_t kCpuPerUidConfig = 137;               // CpuPerUidConfig
inline constexpr uint32_t kUserListConfig = 138;                // AndroidUserListConfig
inline constexpr uint32_t kInputmethodConfig = 139;             // InputMethodConfig
inline constexpr uint32_t kAndroidAflagsConfig = 140;           // AndroidAflagsConfig
inline constexpr uint32_t kJournaldConfig = 141;                // SystemdJournaldConfig
inline constexpr uint32_t kDisplayVideoConfig = 142;            // DisplayVideoConfig
inline constexpr uint32_t kChromiumStackSamplingProfiler =
    143;  // ChromiumStackSamplingProfilerConfig
inline constexpr uint32_t kChromiumSamplingHeapProfiler =
    144;                                         // ChromiumSamplingHeapProfilerConfig
inline constexpr uint32_t kQnxConfig = 150;      // QnxConfig
inline constexpr uint32_t kLegacyConfig = 1000;  // string
inline constexpr uint32_t kForTesting = 1001;    // TestConfig
}  // namespace data_source_config

// AndroidLogPacket (protos/perfetto/trace/android/android_log.proto)
namespace android_log_packet {
inline constexpr uint32_t kEvents = 1;  // repeated LogEvent
inline constexpr uint32_t kStats = 2;   // Stats
}  // namespace android_log_packet

// AndroidLogPacket.LogEvent (protos/perfetto/trace/android/android_log.proto)
namespace android_log_packet_log_event {
inline constexpr uint32_t kLogId = 1;      // enum AndroidLogId
inline constexpr uint32_t kPid = 2;        // int32
inline constexpr uint32_t kTid = 3;        // int32
inline constexpr uint32_t kUid = 4;        // int32
inline constexpr uint32_t kTimestamp = 5;  // uint64
inline constexpr uint32_t kTag = 6;        // string
inline constexpr uint32_t kPrio = 7;       // enum AndroidLogPriority
inline constexpr uint32_t kMessage = 8;    // string
inline constexpr uint32_t kArgs = 9;       // repeated Arg
}  // namespace android_log_packet_log_event

// AndroidLogPacket.LogEvent.Arg (protos/perfetto/trace/android/android_log.proto)
namespace android_log_packet_log_event_arg {
inline constexpr uint32_t kName = 1;         // string
inline constexpr uint32_t kIntValue = 2;     // int64
inline constexpr uint32_t kFloatValue = 3;   // float
inline constexpr uint32_t kStringValue = 4;  // string
}  // namespace android_log_packet_log_event_arg

// AndroidLogPacket.Stats (protos/perfetto/trace/android/android_log.proto)
namespace android_log_packet_stats {
inline constexpr uint32_t kNumTotal = 1;    // uint64
inline constexpr uint32_t kNumFailed = 2;   // uint64
inline constexpr uint32_t kNumSkipped = 3;  // uint64
}  // namespace android_log_packet_stats

// PackagesList (protos/perfetto/trace/android/packages_list.proto)
namespace packages_list {
inline constexpr uint32_t kPackages = 1;    // repeated PackageInfo
inline constexpr uint32_t kParseError = 2;  // bool
inline constexpr uint32_t kReadError = 3;   // bool
}  // namespace packages_list

// PackagesList.PackageInfo (protos/perfetto/trace/android/packages_list.proto)
namespace packages_list_package_info {
inline constexpr uint32_t kName = 1;                  // string
inline constexpr uint32_t kUid = 2;                   // uint64
inline constexpr uint32_t kDebuggable = 3;            // bool
inline constexpr uint32_t kProfileableFromShell = 4;  // bool
inline constexpr uint32_t kVersionCode = 5;           // int64
}  // namespace packages_list_package_info

// InitialDisplayState (protos/perfetto/trace/android/initial_display_state.proto)
namespace initial_display_state {
inline constexpr uint32_t kDisplayState = 1;  // int32
inline constexpr uint32_t kBrightness = 2;    // double
}  // namespace initial_display_state

// TranslationTable (protos/perfetto/trace/translation/translation_table.proto). Every table is
// a map: entries with key = 1 and value = 2.
namespace translation_table {
inline constexpr uint32_t kChromeHistogram = 1;       // hash_to_name = 1 (uint64 → string)
inline constexpr uint32_t kChromeUserEvent = 2;       // action_hash_to_name = 1
inline constexpr uint32_t kChromePerformanceMark = 3;  // site_hash_to_name = 1, mark_hash_to_name = 2
inline constexpr uint32_t kSliceName = 4;             // raw_to_deobfuscated_name = 1
inline constexpr uint32_t kProcessTrackName = 5;      // raw_to_deobfuscated_name = 1
inline constexpr uint32_t kChromeStudy = 6;           // hash_to_name = 1
}  // namespace translation_table

// AndroidSystemProperty (protos/perfetto/trace/android/android_system_property.proto)
namespace android_system_property {
inline constexpr uint32_t kValues = 1;  // PropertyValue, repeated
}  // namespace android_system_property
namespace android_system_property_value {
inline constexpr uint32_t kName = 1;   // string
inline constexpr uint32_t kValue = 2;  // string
}  // namespace android_system_property_value

// TracingServiceEvent (protos/perfetto/trace/perfetto/tracing_service_event.proto)
namespace tracing_service_event {
inline constexpr uint32_t kAllDataSourcesStarted = 1;        // bool
inline constexpr uint32_t kTracingStarted = 2;               // bool
inline constexpr uint32_t kAllDataSourcesFlushed = 3;        // bool
inline constexpr uint32_t kReadTracingBuffersCompleted = 4;  // bool
inline constexpr uint32_t kTracingDisabled = 5;              // bool
inline constexpr uint32_t kSeizedForBugreport = 6;           // bool
inline constexpr uint32_t kSlowStartingDataSources = 7;      // DataSources
inline constexpr uint32_t kLastFlushSlowDataSources = 8;     // DataSources
inline constexpr uint32_t kFlushStarted = 9;                 // bool
inline constexpr uint32_t kCloneStarted = 10;                // bool
inline constexpr uint32_t kBufferCloned = 11;                // uint32
}  // namespace tracing_service_event

// TracingServiceEvent.DataSources (protos/perfetto/trace/perfetto/tracing_service_event.proto)
namespace tracing_service_event_data_sources {
inline constexpr uint32_t kDataSource = 1;  // repeated DataSource
}  // namespace tracing_service_event_data_sources

// TracingServiceEvent.DataSources.DataSource
// (protos/perfetto/trace/perfetto/tracing_service_event.proto)
namespace tracing_service_event_data_sources_data_source {
inline constexpr uint32_t kProducerName = 1;    // string
inline constexpr uint32_t kDataSourceName = 2;  // string
}  // namespace tracing_service_event_data_sources_data_source

// TraceAttributes (protos/perfetto/common/trace_attributes.proto)
namespace trace_attributes {
inline constexpr uint32_t kAttribute = 1;  // repeated Attribute
}  // namespace trace_attributes

// TraceAttributes.Attribute (protos/perfetto/common/trace_attributes.proto)
namespace trace_attributes_attribute {
inline constexpr uint32_t kKey = 1;          // string
inline constexpr uint32_t kLongValue = 2;    // int64
inline constexpr uint32_t kStringValue = 3;  // string
}  // namespace trace_attributes_attribute

// ChromeMetadataPacket (protos/perfetto/trace/chrome/chrome_metadata.proto)
namespace chrome_metadata_packet {
inline constexpr uint32_t kBackgroundTracingMetadata = 1;  // BackgroundTracingMetadata
inline constexpr uint32_t kChromeVersionCode = 2;          // int32
inline constexpr uint32_t kEnabledCategories = 3;          // string
inline constexpr uint32_t kFieldTrialHashes = 4;           // repeated FinchHash
inline constexpr uint32_t kAppPackageName = 5;             // string
inline constexpr uint32_t kAppVersion = 6;                 // string
inline constexpr uint32_t kChannel = 7;                    // uint32
inline constexpr uint32_t kOsName = 8;                     // string
}  // namespace chrome_metadata_packet

// ChromeBenchmarkMetadata (protos/perfetto/trace/chrome/chrome_benchmark_metadata.proto)
namespace chrome_benchmark_metadata {
inline constexpr uint32_t kBenchmarkStartTimeUs = 1;  // int64
inline constexpr uint32_t kStoryRunTimeUs = 2;        // int64
inline constexpr uint32_t kBenchmarkName = 3;         // string
inline constexpr uint32_t kBenchmarkDescription = 4;  // string
inline constexpr uint32_t kLabel = 5;                 // string
inline constexpr uint32_t kStoryName = 6;             // string
inline constexpr uint32_t kStoryTags = 7;             // repeated string
inline constexpr uint32_t kStoryRunIndex = 8;         // int32
inline constexpr uint32_t kHadFailures = 9;           // bool
}  // namespace chrome_benchmark_metadata

// TrackDescriptor (protos/perfetto/trace/track_event/track_descriptor.proto)
namespace track_descriptor {
inline constexpr uint32_t kUuid = 1;                             // uint64
inline constexpr uint32_t kName = 2;                             // string
inline constexpr uint32_t kProcess = 3;                          // ProcessDescriptor
inline constexpr uint32_t kThread = 4;                           // ThreadDescriptor
inline constexpr uint32_t kParentUuid = 5;                       // uint64
inline constexpr uint32_t kChromeProcess = 6;                    // ChromeProcessDescriptor
inline constexpr uint32_t kChromeThread = 7;                     // ChromeThreadDescriptor
inline constexpr uint32_t kCounter = 8;                          // CounterDescriptor
inline constexpr uint32_t kDisallowMergingWithSystemTracks = 9;  // bool
inline constexpr uint32_t kStaticName = 10;                      // string
inline constexpr uint32_t kChildOrdering = 11;                   // enum ChildTracksOrdering
inline constexpr uint32_t kSiblingOrderRank = 12;                // int32
inline constexpr uint32_t kAtraceName = 13;                      // string
inline constexpr uint32_t kDescription = 14;                     // string
inline constexpr uint32_t kSiblingMergeBehavior = 15;            // enum SiblingMergeBehavior
inline constexpr uint32_t kSiblingMergeKey = 16;                 // string
inline constexpr uint32_t kSiblingMergeKeyInt = 17;              // uint64
inline constexpr uint32_t kState = 18;                           // StateDescriptor
inline constexpr uint32_t kProcessOrdering = 19;                 // enum ProcessOrdering
inline constexpr uint32_t kThreadOrdering = 20;                  // enum ThreadOrdering
}  // namespace track_descriptor

// ProcessDescriptor (protos/perfetto/trace/track_event/process_descriptor.proto)
namespace process_descriptor {
inline constexpr uint32_t kPid = 1;                // int32
inline constexpr uint32_t kCmdline = 2;            // repeated string
inline constexpr uint32_t kLegacySortIndex = 3;    // int32
inline constexpr uint32_t kChromeProcessType = 4;  // enum ChromeProcessType
inline constexpr uint32_t kProcessPriority = 5;    // int32
inline constexpr uint32_t kProcessName = 6;        // string
inline constexpr uint32_t kStartTimestampNs = 7;   // int64
inline constexpr uint32_t kProcessLabels = 8;      // repeated string
}  // namespace process_descriptor

// ThreadDescriptor (protos/perfetto/trace/track_event/thread_descriptor.proto)
namespace thread_descriptor {
inline constexpr uint32_t kPid = 1;                              // int32
inline constexpr uint32_t kTid = 2;                              // int64
inline constexpr uint32_t kLegacySortIndex = 3;                  // int32
inline constexpr uint32_t kChromeThreadType = 4;                 // enum ChromeThreadType
inline constexpr uint32_t kThreadName = 5;                       // string
inline constexpr uint32_t kReferenceTimestampUs = 6;             // int64
inline constexpr uint32_t kReferenceThreadTimeUs = 7;            // int64
inline constexpr uint32_t kReferenceThreadInstructionCount = 8;  // int64
}  // namespace thread_descriptor

// ChromeProcessDescriptor (protos/perfetto/trace/track_event/chrome_process_descriptor.proto)
namespace chrome_process_descriptor {
inline constexpr uint32_t kProcessType = 1;         // int32
inline constexpr uint32_t kProcessPriority = 2;     // int32
inline constexpr uint32_t kLegacySortIndex = 3;     // int32
inline constexpr uint32_t kHostAppPackageName = 4;  // string
inline constexpr uint32_t kCrashTraceId = 5;        // uint64
}  // namespace chrome_process_descriptor

// ChromeThreadDescriptor (protos/perfetto/trace/track_event/chrome_thread_descriptor.proto)
namespace chrome_thread_descriptor {
inline constexpr uint32_t kThreadType = 1;       // int32
inline constexpr uint32_t kLegacySortIndex = 2;  // int32
inline constexpr uint32_t kIsSandboxedTid = 3;   // bool
}  // namespace chrome_thread_descriptor

// CounterDescriptor (protos/perfetto/trace/track_event/counter_descriptor.proto)
namespace counter_descriptor {
inline constexpr uint32_t kType = 1;            // enum BuiltinCounterType
inline constexpr uint32_t kCategories = 2;      // repeated string
inline constexpr uint32_t kUnit = 3;            // enum Unit
inline constexpr uint32_t kUnitMultiplier = 4;  // int64
inline constexpr uint32_t kIsIncremental = 5;   // bool
inline constexpr uint32_t kUnitName = 6;        // string
inline constexpr uint32_t kYAxisShareKey = 7;   // string
}  // namespace counter_descriptor

// TrackEvent (protos/perfetto/trace/track_event/track_event.proto)
namespace track_event {
inline constexpr uint32_t kTimestampDeltaUs = 1;                 // int64
inline constexpr uint32_t kThreadTimeDeltaUs = 2;                // int64
inline constexpr uint32_t kCategoryIids = 3;                     // repeated uint64
inline constexpr uint32_t kDebugAnnotations = 4;                 // repeated DebugAnnotation
inline constexpr uint32_t kTaskExecution = 5;                    // TaskExecution
inline constexpr uint32_t kLegacyEvent = 6;                      // LegacyEvent
inline constexpr uint32_t kThreadInstructionCountDelta = 8;      // int64
inline constexpr uint32_t kType = 9;                             // enum Type
inline constexpr uint32_t kNameIid = 10;                         // uint64
inline constexpr uint32_t kTrackUuid = 11;                       // uint64
inline constexpr uint32_t kExtraCounterValues = 12;              // repeated int64
inline constexpr uint32_t kTimestampAbsoluteUs = 16;             // int64
inline constexpr uint32_t kThreadTimeAbsoluteUs = 17;            // int64
inline constexpr uint32_t kThreadInstructionCountAbsolute = 20;  // int64
inline constexpr uint32_t kLogMessage = 21;                      // LogMessage
inline constexpr uint32_t kCategories = 22;                      // repeated string
inline constexpr uint32_t kName = 23;                            // string
inline constexpr uint32_t kCcSchedulerState = 24;                // ChromeCompositorSchedulerState
inline constexpr uint32_t kChromeUserEvent = 25;                 // ChromeUserEvent
inline constexpr uint32_t kChromeKeyedService = 26;              // ChromeKeyedService
inline constexpr uint32_t kChromeLegacyIpc = 27;                 // ChromeLegacyIpc
inline constexpr uint32_t kChromeHistogramSample = 28;           // ChromeHistogramSample
inline constexpr uint32_t kChromeLatencyInfo = 29;               // ChromeLatencyInfo
inline constexpr uint32_t kCounterValue = 30;                    // int64
inline constexpr uint32_t kExtraCounterTrackUuids = 31;          // repeated uint64
inline constexpr uint32_t kChromeFrameReporter = 32;             // ChromeFrameReporter
inline constexpr uint32_t kSourceLocation = 33;                  // SourceLocation
inline constexpr uint32_t kSourceLocationIid = 34;               // uint64
inline constexpr uint32_t kChromeMessagePump = 35;               // ChromeMessagePump
inline constexpr uint32_t kFlowIdsOld = 36;                      // repeated uint64
inline constexpr uint32_t kChromeMojoEventInfo = 38;             // ChromeMojoEventInfo
inline constexpr uint32_t kChromeApplicationStateInfo = 39;      // ChromeApplicationStateInfo
inline constexpr uint32_t kChromeRendererSchedulerState = 40;    // ChromeRendererSchedulerState
inline constexpr uint32_t kChromeWindowHandleEventInfo = 41;     // ChromeWindowHandleEventInfo
inline constexpr uint32_t kTerminatingFlowIdsOld = 42;           // repeated uint64
inline constexpr uint32_t kChromeContentSettingsEventInfo = 43;  // ChromeContentSettingsEventInfo
inline constexpr uint32_t kDoubleCounterValue = 44;              // double
inline constexpr uint32_t kExtraDoubleCounterTrackUuids = 45;    // repeated uint64
inline constexpr uint32_t kExtraDoubleCounterValues = 46;        // repeated double
inline constexpr uint32_t kFlowIds = 47;                         // repeated fixed64
inline constexpr uint32_t kTerminatingFlowIds = 48;              // repeated fixed64
inline constexpr uint32_t kChromeActiveProcesses = 49;           // ChromeActiveProcesses
inline constexpr uint32_t kScreenshot = 50;                      // Screenshot
inline constexpr uint32_t kCorrelationId = 52;                   // uint64
inline constexpr uint32_t kCorrelationIdStr = 53;                // string
inline constexpr uint32_t kCorrelationIdStrIid = 54;             // uint64
inline constexpr uint32_t kCallstack = 55;                       // InlineCallstack
inline constexpr uint32_t kCallstackIid = 56;                    // uint64
inline constexpr uint32_t kCallstackWeight = 57;                 // double
}  // namespace track_event

// TrackEvent.LegacyEvent (protos/perfetto/trace/track_event/track_event.proto)
namespace track_event_legacy_event {
inline constexpr uint32_t kNameIid = 1;                  // uint64
inline constexpr uint32_t kPhase = 2;                    // int32
inline constexpr uint32_t kDurationUs = 3;               // int64
inline constexpr uint32_t kThreadDurationUs = 4;         // int64
inline constexpr uint32_t kUnscopedId = 6;               // uint64
inline constexpr uint32_t kIdScope = 7;                  // string
inline constexpr uint32_t kBindId = 8;                   // uint64
inline constexpr uint32_t kUseAsyncTts = 9;              // bool
inline constexpr uint32_t kLocalId = 10;                 // uint64
inline constexpr uint32_t kGlobalId = 11;                // uint64
inline constexpr uint32_t kBindToEnclosing = 12;         // bool
inline constexpr uint32_t kFlowDirection = 13;           // enum FlowDirection
inline constexpr uint32_t kInstantEventScope = 14;       // enum InstantEventScope
inline constexpr uint32_t kThreadInstructionDelta = 15;  // int64
inline constexpr uint32_t kPidOverride = 18;             // int32
inline constexpr uint32_t kTidOverride = 19;             // int32
}  // namespace track_event_legacy_event

// DebugAnnotation (protos/perfetto/trace/track_event/debug_annotation.proto)
namespace debug_annotation {
inline constexpr uint32_t kNameIid = 1;            // uint64
inline constexpr uint32_t kBoolValue = 2;          // bool
inline constexpr uint32_t kUintValue = 3;          // uint64
inline constexpr uint32_t kIntValue = 4;           // int64
inline constexpr uint32_t kDoubleValue = 5;        // double
inline constexpr uint32_t kStringValue = 6;        // string
inline constexpr uint32_t kPointerValue = 7;       // uint64
inline constexpr uint32_t kNestedValue = 8;        // NestedValue
inline constexpr uint32_t kLegacyJsonValue = 9;    // string
inline constexpr uint32_t kName = 10;              // string
inline constexpr uint32_t kDictEntries = 11;       // repeated DebugAnnotation
inline constexpr uint32_t kArrayValues = 12;       // repeated DebugAnnotation
inline constexpr uint32_t kProtoTypeNameIid = 13;  // uint64
inline constexpr uint32_t kProtoValue = 14;        // bytes
inline constexpr uint32_t kProtoTypeName = 16;     // string
inline constexpr uint32_t kStringValueIid = 17;    // uint64
}  // namespace debug_annotation

// DebugAnnotation.NestedValue (protos/perfetto/trace/track_event/debug_annotation.proto)
namespace debug_annotation_nested_value {
inline constexpr uint32_t kNestedType = 1;   // enum NestedType
inline constexpr uint32_t kDictKeys = 2;     // repeated string
inline constexpr uint32_t kDictValues = 3;   // repeated NestedValue
inline constexpr uint32_t kArrayValues = 4;  // repeated NestedValue
inline constexpr uint32_t kIntValue = 5;     // int64
inline constexpr uint32_t kDoubleValue = 6;  // double
inline constexpr uint32_t kBoolValue = 7;    // bool
inline constexpr uint32_t kStringValue = 8;  // string
}  // namespace debug_annotation_nested_value

// DebugAnnotationName (protos/perfetto/trace/track_event/debug_annotation.proto)
namespace debug_annotation_name {
inline constexpr uint32_t kIid = 1;   // uint64
inline constexpr uint32_t kName = 2;  // string
}  // namespace debug_annotation_name

// DebugAnnotationValueTypeName (protos/perfetto/trace/track_event/debug_annotation.proto)
namespace debug_annotation_value_type_name {
inline constexpr uint32_t kIid = 1;   // uint64
inline constexpr uint32_t kName = 2;  // string
}  // namespace debug_annotation_value_type_name

// InternedData (protos/perfetto/trace/interned_data/interned_data.proto)
namespace interned_data {
inline constexpr uint32_t kEventCategories = 1;       // repeated EventCategory
inline constexpr uint32_t kEventNames = 2;            // repeated EventName
inline constexpr uint32_t kDebugAnnotationNames = 3;  // repeated DebugAnnotationName
inline constexpr uint32_t kSourceLocations = 4;       // repeated SourceLocation
inline constexpr uint32_t kFunctionNames = 5;         // repeated InternedString
inline constexpr uint32_t kFrames = 6;                // repeated Frame
inline constexpr uint32_t kCallstacks = 7;            // repeated Callstack
inline constexpr uint32_t kBuildIds = 16;             // repeated InternedString
inline constexpr uint32_t kMappingPaths = 17;         // repeated InternedString
inline constexpr uint32_t kSourcePaths = 18;          // repeated InternedString
inline constexpr uint32_t kMappings = 19;             // repeated Mapping
inline constexpr uint32_t kLogMessageBody = 20;       // repeated LogMessageBody
inline constexpr uint32_t kVulkanMemoryKeys = 22;     // repeated InternedString
inline constexpr uint32_t kGraphicsContexts = 23;     // repeated InternedGraphicsContext
inline constexpr uint32_t kGpuSpecifications = 24;  // repeated InternedGpuRenderStageSpecification
inline constexpr uint32_t kHistogramNames = 25;     // repeated HistogramName
inline constexpr uint32_t kKernelSymbols = 26;      // repeated InternedString
inline constexpr uint32_t kDebugAnnotationValueTypeNames =
    27;  // repeated DebugAnnotationValueTypeName
inline constexpr uint32_t kUnsymbolizedSourceLocations = 28;  // repeated UnsymbolizedSourceLocation
inline constexpr uint32_t kDebugAnnotationStringValues = 29;  // repeated InternedString
inline constexpr uint32_t kV8JsFunctionName = 31;             // repeated InternedV8String
inline constexpr uint32_t kV8JsFunction = 32;                 // repeated InternedV8JsFunction
inline constexpr uint32_t kV8JsScript = 33;                   // repeated InternedV8JsScript
inline constexpr uint32_t kV8WasmScript = 34;                 // repeated InternedV8WasmScript
inline constexpr uint32_t kV8Isolate = 35;                    // repeated InternedV8Isolate
inline constexpr uint32_t kCorrelationIdStr = 43;             // repeated InternedString
inline constexpr uint32_t kGpuCounterDescriptors = 47;    // repeated InternedGpuCounterDescriptor
inline constexpr uint32_t kStackSampleTaskContexts = 48;  // repeated TaskContext
inline constexpr uint32_t kStackSampleExecutionContexts = 49;   // repeated ExecutionContext
inline constexpr uint32_t kStackSampleCounterDescriptors = 50;  // repeated CounterDescriptor
inline constexpr uint32_t kStackSampleAsyncContextDescriptors =
    51;  // repeated AsyncContextDescriptor
}  // namespace interned_data

// InternedString (protos/perfetto/trace/profiling/profile_common.proto)
namespace interned_string {
inline constexpr uint32_t kIid = 1;  // uint64
inline constexpr uint32_t kStr = 2;  // bytes
}  // namespace interned_string

// Mapping (protos/perfetto/trace/profiling/profile_common.proto)
namespace profile_mapping {
inline constexpr uint32_t kIid = 1;            // uint64
inline constexpr uint32_t kBuildId = 2;        // uint64 (interned build_ids)
inline constexpr uint32_t kStartOffset = 3;    // uint64
inline constexpr uint32_t kStart = 4;          // uint64
inline constexpr uint32_t kEnd = 5;            // uint64
inline constexpr uint32_t kLoadBias = 6;       // uint64
inline constexpr uint32_t kPathStringIds = 7;  // repeated uint64 (interned mapping_paths)
inline constexpr uint32_t kExactOffset = 8;    // uint64
}  // namespace profile_mapping

// Frame (protos/perfetto/trace/profiling/profile_common.proto)
namespace profile_frame {
inline constexpr uint32_t kIid = 1;             // uint64
inline constexpr uint32_t kFunctionNameId = 2;  // uint64 (interned function_names)
inline constexpr uint32_t kMappingId = 3;       // uint64 (interned mappings)
inline constexpr uint32_t kRelPc = 4;           // uint64
inline constexpr uint32_t kSourcePathIid = 5;   // uint64 (interned source_paths)
inline constexpr uint32_t kLineNumber = 6;      // uint32
inline constexpr uint32_t kKind = 7;            // Frame.Kind
inline constexpr uint32_t kKindStr = 8;         // string (oneof with kind)
}  // namespace profile_frame

// ProfilePacket (protos/perfetto/trace/profiling/profile_packet.proto), TracePacket field 37:
// heapprofd's dumps, with their own interned strings, mappings, frames and callstacks.
namespace profile_packet {
inline constexpr uint32_t kStrings = 1;       // repeated InternedString
inline constexpr uint32_t kFrames = 2;        // repeated Frame
inline constexpr uint32_t kCallstacks = 3;    // repeated Callstack
inline constexpr uint32_t kMappings = 4;      // repeated Mapping
inline constexpr uint32_t kProcessDumps = 5;  // repeated ProcessHeapSamples
inline constexpr uint32_t kContinued = 6;     // bool
inline constexpr uint32_t kIndex = 7;         // uint64
}  // namespace profile_packet

// ProfilePacket.ProcessHeapSamples (protos/perfetto/trace/profiling/profile_packet.proto)
namespace profile_process_heap_samples {
inline constexpr uint32_t kPid = 1;                        // uint64
inline constexpr uint32_t kSamples = 2;                    // repeated HeapSample
inline constexpr uint32_t kFromStartup = 3;                // bool
inline constexpr uint32_t kRejectedConcurrent = 4;         // bool
inline constexpr uint32_t kStats = 5;                      // ProcessStats
inline constexpr uint32_t kDisconnected = 6;               // bool
inline constexpr uint32_t kBufferOverran = 7;              // bool
inline constexpr uint32_t kBufferCorrupted = 8;            // bool
inline constexpr uint32_t kTimestamp = 9;                  // uint64 (CLOCK_MONOTONIC_COARSE)
inline constexpr uint32_t kHitGuardrail = 10;              // bool
inline constexpr uint32_t kHeapName = 11;                  // string
inline constexpr uint32_t kSamplingIntervalBytes = 12;     // uint64
inline constexpr uint32_t kOrigSamplingIntervalBytes = 13; // uint64
inline constexpr uint32_t kClientError = 14;               // ClientError (1: hit timeout)
inline constexpr uint32_t kStartTimestamp = 15;            // uint64 (CLOCK_MONOTONIC_COARSE)
}  // namespace profile_process_heap_samples

// ProfilePacket.HeapSample (protos/perfetto/trace/profiling/profile_packet.proto)
namespace profile_heap_sample {
inline constexpr uint32_t kCallstackId = 1;    // uint64
inline constexpr uint32_t kSelfAllocated = 2;  // uint64
inline constexpr uint32_t kSelfFreed = 3;      // uint64
inline constexpr uint32_t kTimestamp = 4;      // uint64
inline constexpr uint32_t kAllocCount = 5;     // uint64
inline constexpr uint32_t kFreeCount = 6;      // uint64
inline constexpr uint32_t kSelfMax = 8;        // uint64
inline constexpr uint32_t kSelfMaxCount = 9;   // uint64
}  // namespace profile_heap_sample

// ProfilePacket.ProcessStats (protos/perfetto/trace/profiling/profile_packet.proto)
namespace profile_process_stats {
inline constexpr uint32_t kUnwindingErrors = 1;         // uint64
inline constexpr uint32_t kHeapSamples = 2;             // uint64
inline constexpr uint32_t kMapReparses = 3;             // uint64
inline constexpr uint32_t kTotalUnwindingTimeUs = 5;    // uint64
inline constexpr uint32_t kClientSpinlockBlockedUs = 6; // uint64
}  // namespace profile_process_stats

// Callstack (protos/perfetto/trace/profiling/profile_common.proto)
namespace profile_callstack {
inline constexpr uint32_t kIid = 1;       // uint64
inline constexpr uint32_t kFrameIds = 2;  // repeated uint64 (interned frames), outermost first
}  // namespace profile_callstack

// PerfSample (protos/perfetto/trace/profiling/profile_packet.proto), TracePacket field 66.
namespace perf_sample {
inline constexpr uint32_t kCpu = 1;                  // uint32
inline constexpr uint32_t kPid = 2;                  // uint32
inline constexpr uint32_t kTid = 3;                  // uint32
inline constexpr uint32_t kCallstackIid = 4;         // uint64 (interned callstacks)
inline constexpr uint32_t kCpuMode = 5;              // Profiling.CpuMode
inline constexpr uint32_t kTimebaseCount = 6;        // uint64
inline constexpr uint32_t kFollowerCounts = 7;       // repeated uint64
inline constexpr uint32_t kUnwindError = 16;         // Profiling.StackUnwindError
inline constexpr uint32_t kKernelRecordsLost = 17;   // uint64
inline constexpr uint32_t kSampleSkippedReason = 18; // PerfSample.SampleSkipReason
inline constexpr uint32_t kProducerEvent = 19;       // PerfSample.ProducerEvent
}  // namespace perf_sample

// PerfSample.ProducerEvent (protos/perfetto/trace/profiling/profile_packet.proto)
namespace perf_sample_producer_event {
inline constexpr uint32_t kSourceStopReason = 1;  // DataSourceStopReason (1: guardrail)
}  // namespace perf_sample_producer_event

// PerfSampleDefaults (protos/perfetto/trace/profiling/profile_packet.proto)
namespace perf_sample_defaults {
inline constexpr uint32_t kTimebase = 1;            // PerfEvents.Timebase
inline constexpr uint32_t kProcessShardCount = 2;   // uint32
inline constexpr uint32_t kChosenProcessShard = 3;  // uint32
inline constexpr uint32_t kFollowers = 4;           // repeated FollowerEvent
}  // namespace perf_sample_defaults

// PerfEvents.Timebase (protos/perfetto/common/perf_events.proto)
namespace perf_events_timebase {
inline constexpr uint32_t kPeriod = 1;          // uint64
inline constexpr uint32_t kFrequency = 2;       // uint64
inline constexpr uint32_t kTracepoint = 3;      // PerfEvents.Tracepoint
inline constexpr uint32_t kCounter = 4;         // PerfEvents.Counter
inline constexpr uint32_t kRawEvent = 5;        // PerfEvents.RawEvent
inline constexpr uint32_t kPollPeriodMs = 6;    // uint32
inline constexpr uint32_t kName = 10;           // string
inline constexpr uint32_t kTimestampClock = 11; // PerfEvents.PerfClock
inline constexpr uint32_t kModifiers = 12;      // repeated PerfEvents.EventModifier
}  // namespace perf_events_timebase

// FollowerEvent (protos/perfetto/common/perf_events.proto)
namespace perf_follower_event {
inline constexpr uint32_t kCounter = 1;     // PerfEvents.Counter
inline constexpr uint32_t kTracepoint = 2;  // PerfEvents.Tracepoint
inline constexpr uint32_t kRawEvent = 3;    // PerfEvents.RawEvent
inline constexpr uint32_t kName = 4;        // string
inline constexpr uint32_t kModifiers = 5;   // repeated PerfEvents.EventModifier
}  // namespace perf_follower_event

// PerfEvents.Tracepoint (protos/perfetto/common/perf_events.proto)
namespace perf_events_tracepoint {
inline constexpr uint32_t kName = 1;    // string ("group:name")
inline constexpr uint32_t kFilter = 2;  // string
}  // namespace perf_events_tracepoint

// PerfEvents.RawEvent (protos/perfetto/common/perf_events.proto)
namespace perf_events_raw_event {
inline constexpr uint32_t kType = 1;     // uint32
inline constexpr uint32_t kConfig = 2;   // uint64
inline constexpr uint32_t kConfig1 = 3;  // uint64
inline constexpr uint32_t kConfig2 = 4;  // uint64
inline constexpr uint32_t kPmuName = 5;  // string
}  // namespace perf_events_raw_event

// TrackEvent.InlineCallstack (protos/perfetto/trace/track_event/track_event.proto)
namespace track_event_inline_callstack {
inline constexpr uint32_t kFrames = 1;  // repeated Frame, outermost first
}  // namespace track_event_inline_callstack

// TrackEvent.InlineCallstack.Frame (protos/perfetto/trace/track_event/track_event.proto)
namespace track_event_inline_callstack_frame {
inline constexpr uint32_t kFunctionName = 1;  // string
inline constexpr uint32_t kSourceFile = 2;    // string
inline constexpr uint32_t kLineNumber = 3;    // uint32
}  // namespace track_event_inline_callstack_frame

// EventCategory (protos/perfetto/trace/track_event/track_event.proto)
namespace event_category {
inline constexpr uint32_t kIid = 1;   // uint64
inline constexpr uint32_t kName = 2;  // string
}  // namespace event_category

// EventName (protos/perfetto/trace/track_event/track_event.proto)
namespace event_name {
inline constexpr uint32_t kIid = 1;   // uint64
inline constexpr uint32_t kName = 2;  // string
}  // namespace event_name

// SourceLocation (protos/perfetto/trace/track_event/source_location.proto)
namespace source_location {
inline constexpr uint32_t kIid = 1;           // uint64
inline constexpr uint32_t kFileName = 2;      // string
inline constexpr uint32_t kFunctionName = 3;  // string
inline constexpr uint32_t kLineNumber = 4;    // uint32
}  // namespace source_location

// UnsymbolizedSourceLocation (protos/perfetto/trace/track_event/source_location.proto)
namespace unsymbolized_source_location {
inline constexpr uint32_t kIid = 1;        // uint64
inline constexpr uint32_t kMappingId = 2;  // uint64
inline constexpr uint32_t kRelPc = 3;      // uint64
}  // namespace unsymbolized_source_location

// LogMessage (protos/perfetto/trace/track_event/log_message.proto)
namespace log_message {
inline constexpr uint32_t kSourceLocationIid = 1;  // uint64
inline constexpr uint32_t kBodyIid = 2;            // uint64
inline constexpr uint32_t kPrio = 3;               // enum Priority
}  // namespace log_message

// LogMessageBody (protos/perfetto/trace/track_event/log_message.proto)
namespace log_message_body {
inline constexpr uint32_t kIid = 1;   // uint64
inline constexpr uint32_t kBody = 2;  // string
}  // namespace log_message_body

// enum BuiltinClock (protos/perfetto/common/builtin_clock.proto)
namespace builtin_clock {
inline constexpr uint32_t kUnknown = 0;
inline constexpr uint32_t kRealtime = 1;
inline constexpr uint32_t kRealtimeCoarse = 2;
inline constexpr uint32_t kMonotonic = 3;
inline constexpr uint32_t kMonotonicCoarse = 4;
inline constexpr uint32_t kMonotonicRaw = 5;
inline constexpr uint32_t kBoottime = 6;
inline constexpr uint32_t kTsc = 9;
inline constexpr uint32_t kPerf = 10;
inline constexpr uint32_t kTraceFile = 11;
inline constexpr uint32_t kMaxId = 63;
}  // namespace builtin_clock

// enum TracePacket.SequenceFlags (protos/perfetto/trace/trace_packet.proto)
namespace sequence_flags {
inline constexpr uint32_t kUnspecified = 0;
inline constexpr uint32_t kIncrementalStateCleared = 1;
inline constexpr uint32_t kNeedsIncrementalState = 2;
}  // namespace sequence_flags

// enum TracePacket.DataLossReason (protos/perfetto/trace/trace_packet.proto)
namespace data_loss_reason {
inline constexpr uint32_t kUnspecified = 0;
inline constexpr uint32_t kPresent = 1;
inline constexpr uint32_t kReadGap = 2;
inline constexpr uint32_t kChunkCorrupted = 4;
inline constexpr uint32_t kOrphanContinuation = 8;
inline constexpr uint32_t kReassemblyGap = 16;
inline constexpr uint32_t kReassemblyBrokenChain = 32;
inline constexpr uint32_t kOverwrite = 64;
inline constexpr uint32_t kWriterAbort = 128;
inline constexpr uint32_t kSmbFull = 256;
}  // namespace data_loss_reason

// enum FtraceClock (protos/perfetto/trace/ftrace/ftrace_event_bundle.proto)
namespace ftrace_clock {
inline constexpr uint32_t kUnspecified = 0;
inline constexpr uint32_t kUnknown = 1;
inline constexpr uint32_t kGlobal = 2;
inline constexpr uint32_t kLocal = 3;
inline constexpr uint32_t kMonoRaw = 4;
}  // namespace ftrace_clock

// enum FtraceStats.Phase (protos/perfetto/trace/ftrace/ftrace_stats.proto)
namespace ftrace_stats_phase {
inline constexpr uint32_t kUnspecified = 0;
inline constexpr uint32_t kStartOfTrace = 1;
inline constexpr uint32_t kEndOfTrace = 2;
}  // namespace ftrace_stats_phase

// enum FtraceParseStatus (protos/perfetto/trace/ftrace/ftrace_stats.proto)
namespace ftrace_parse_status {
inline constexpr uint32_t kUnspecified = 0;
inline constexpr uint32_t kOk = 1;
inline constexpr uint32_t kUnexpectedReadError = 2;
inline constexpr uint32_t kPartialPageRead = 3;
inline constexpr uint32_t kAbiInvalidPageHeader = 4;
inline constexpr uint32_t kAbiShortEventHeader = 5;
inline constexpr uint32_t kAbiNullPadding = 6;
inline constexpr uint32_t kAbiShortPaddingLength = 7;
inline constexpr uint32_t kAbiInvalidPaddingLength = 8;
inline constexpr uint32_t kAbiShortTimeExtend = 9;
inline constexpr uint32_t kAbiShortTimeStamp = 10;
inline constexpr uint32_t kAbiShortDataLength = 11;
inline constexpr uint32_t kAbiZeroDataLength = 12;
inline constexpr uint32_t kAbiInvalidDataLength = 13;
inline constexpr uint32_t kAbiShortEventId = 14;
inline constexpr uint32_t kAbiEndOverflow = 15;
inline constexpr uint32_t kShortCompactEvent = 16;
inline constexpr uint32_t kInvalidEvent = 17;
}  // namespace ftrace_parse_status

// enum TraceStats.FinalFlushOutcome (protos/perfetto/common/trace_stats.proto)
namespace trace_stats_final_flush_outcome {
inline constexpr uint32_t kUnspecified = 0;
inline constexpr uint32_t kSucceeded = 1;
inline constexpr uint32_t kFailed = 2;
}  // namespace trace_stats_final_flush_outcome

// enum SysStats.PsiSample.PsiResource (protos/perfetto/trace/sys_stats/sys_stats.proto)
namespace psi_resource {
inline constexpr uint32_t kUnspecified = 0;
inline constexpr uint32_t kCpuSome = 1;
inline constexpr uint32_t kCpuFull = 2;
inline constexpr uint32_t kIoSome = 3;
inline constexpr uint32_t kIoFull = 4;
inline constexpr uint32_t kMemorySome = 5;
inline constexpr uint32_t kMemoryFull = 6;
}  // namespace psi_resource

// enum TraceConfig.BufferConfig.FillPolicy (protos/perfetto/config/trace_config.proto)
namespace buffer_fill_policy {
inline constexpr uint32_t kUnspecified = 0;
inline constexpr uint32_t kRingBuffer = 1;
inline constexpr uint32_t kDiscard = 2;
}  // namespace buffer_fill_policy

// enum TraceConfig.TriggerConfig.TriggerMode (protos/perfetto/config/trace_config.proto)
namespace trigger_mode {
inline constexpr uint32_t kUnspecified = 0;
inline constexpr uint32_t kStartTracing = 1;
inline constexpr uint32_t kStopTracing = 2;
inline constexpr uint32_t kCloneSnapshot = 4;
}  // namespace trigger_mode

// enum AndroidLogId (protos/perfetto/common/android_log_constants.proto)
namespace android_log_id {
inline constexpr uint32_t kDefault = 0;
inline constexpr uint32_t kRadio = 1;
inline constexpr uint32_t kEvents = 2;
inline constexpr uint32_t kSystem = 3;
inline constexpr uint32_t kCrash = 4;
inline constexpr uint32_t kStats = 5;
inline constexpr uint32_t kSecurity = 6;
inline constexpr uint32_t kKernel = 7;
}  // namespace android_log_id

// enum AndroidLogPriority (protos/perfetto/common/android_log_constants.proto)
namespace android_log_priority {
inline constexpr uint32_t kUnspecified = 0;
inline constexpr uint32_t kUnused = 1;
inline constexpr uint32_t kVerbose = 2;
inline constexpr uint32_t kDebug = 3;
inline constexpr uint32_t kInfo = 4;
inline constexpr uint32_t kWarn = 5;
inline constexpr uint32_t kError = 6;
inline constexpr uint32_t kFatal = 7;
}  // namespace android_log_priority

// enum TrackEvent.Type (protos/perfetto/trace/track_event/track_event.proto)
namespace track_event_type {
inline constexpr uint32_t kUnspecified = 0;
inline constexpr uint32_t kSliceBegin = 1;
inline constexpr uint32_t kSliceEnd = 2;
inline constexpr uint32_t kInstant = 3;
inline constexpr uint32_t kCounter = 4;
inline constexpr uint32_t kState = 5;
}  // namespace track_event_type

// enum LogMessage.Priority (protos/perfetto/trace/track_event/log_message.proto)
namespace log_message_priority {
inline constexpr uint32_t kUnspecified = 0;
inline constexpr uint32_t kUnused = 1;
inline constexpr uint32_t kVerbose = 2;
inline constexpr uint32_t kDebug = 3;
inline constexpr uint32_t kInfo = 4;
inline constexpr uint32_t kWarn = 5;
inline constexpr uint32_t kError = 6;
inline constexpr uint32_t kFatal = 7;
}  // namespace log_message_priority

// enum TrackEvent.LegacyEvent.FlowDirection (protos/perfetto/trace/track_event/track_event.proto)
namespace legacy_event_flow_direction {
inline constexpr uint32_t kUnspecified = 0;
inline constexpr uint32_t kIn = 1;
inline constexpr uint32_t kOut = 2;
inline constexpr uint32_t kInout = 3;
}  // namespace legacy_event_flow_direction

// enum TrackEvent.LegacyEvent.InstantEventScope
// (protos/perfetto/trace/track_event/track_event.proto)
namespace legacy_event_instant_scope {
inline constexpr uint32_t kUnspecified = 0;
inline constexpr uint32_t kGlobal = 1;
inline constexpr uint32_t kProcess = 2;
inline constexpr uint32_t kThread = 3;
}  // namespace legacy_event_instant_scope

// enum DebugAnnotation.NestedValue.NestedType
// (protos/perfetto/trace/track_event/debug_annotation.proto)
namespace nested_value_type {
inline constexpr uint32_t kUnspecified = 0;
inline constexpr uint32_t kDict = 1;
inline constexpr uint32_t kArray = 2;
}  // namespace nested_value_type

// enum CounterDescriptor.Unit (protos/perfetto/trace/track_event/counter_descriptor.proto)
namespace counter_unit {
inline constexpr uint32_t kUnspecified = 0;
inline constexpr uint32_t kTimeNs = 1;
inline constexpr uint32_t kCount = 2;
inline constexpr uint32_t kSizeBytes = 3;
}  // namespace counter_unit

// enum CounterDescriptor.BuiltinCounterType
// (protos/perfetto/trace/track_event/counter_descriptor.proto)
namespace builtin_counter_type {
inline constexpr uint32_t kUnspecified = 0;
inline constexpr uint32_t kThreadTimeNs = 1;
inline constexpr uint32_t kThreadInstructionCount = 2;
}  // namespace builtin_counter_type

// enum TrackDescriptor.ChildTracksOrdering
// (protos/perfetto/trace/track_event/track_descriptor.proto)
namespace child_tracks_ordering {
inline constexpr uint32_t kUnknown = 0;
inline constexpr uint32_t kLexicographic = 1;
inline constexpr uint32_t kChronological = 2;
inline constexpr uint32_t kExplicit = 3;
}  // namespace child_tracks_ordering

// enum TrackDescriptor.SiblingMergeBehavior
// (protos/perfetto/trace/track_event/track_descriptor.proto)
namespace sibling_merge_behavior {
inline constexpr uint32_t kUnspecified = 0;
inline constexpr uint32_t kByTrackName = 1;
inline constexpr uint32_t kNone = 2;
inline constexpr uint32_t kBySiblingMergeKey = 3;
}  // namespace sibling_merge_behavior

// enum ProcessDescriptor.ChromeProcessType
// (protos/perfetto/trace/track_event/process_descriptor.proto)
namespace chrome_process_type {
inline constexpr uint32_t kUnspecified = 0;
inline constexpr uint32_t kBrowser = 1;
inline constexpr uint32_t kRenderer = 2;
inline constexpr uint32_t kUtility = 3;
inline constexpr uint32_t kZygote = 4;
inline constexpr uint32_t kSandboxHelper = 5;
inline constexpr uint32_t kGpu = 6;
inline constexpr uint32_t kPpapiPlugin = 7;
inline constexpr uint32_t kPpapiBroker = 8;
}  // namespace chrome_process_type

// enum ThreadDescriptor.ChromeThreadType
// (protos/perfetto/trace/track_event/thread_descriptor.proto)
namespace chrome_thread_type {
inline constexpr uint32_t kUnspecified = 0;
inline constexpr uint32_t kMain = 1;
inline constexpr uint32_t kIo = 2;
inline constexpr uint32_t kPoolBgWorker = 3;
inline constexpr uint32_t kPoolFgWorker = 4;
inline constexpr uint32_t kPoolFbBlocking = 5;
inline constexpr uint32_t kPoolBgBlocking = 6;
inline constexpr uint32_t kPoolService = 7;
inline constexpr uint32_t kCompositor = 8;
inline constexpr uint32_t kVizCompositor = 9;
inline constexpr uint32_t kCompositorWorker = 10;
inline constexpr uint32_t kServiceWorker = 11;
inline constexpr uint32_t kMemoryInfra = 50;
inline constexpr uint32_t kSamplingProfiler = 51;
}  // namespace chrome_thread_type

// Phase characters of TrackEvent.LegacyEvent.phase (an int32 holding the Trace Event Format
// phase character, as in Chrome JSON traces). Not a proto enum.
namespace legacy_phase {
inline constexpr int32_t kBegin = 'B';
inline constexpr int32_t kEnd = 'E';
inline constexpr int32_t kComplete = 'X';
inline constexpr int32_t kInstant = 'I';
inline constexpr int32_t kInstantLowercase = 'i';
inline constexpr int32_t kAsyncBegin = 'S';
inline constexpr int32_t kAsyncStepInto = 'T';
inline constexpr int32_t kAsyncStepPast = 'p';
inline constexpr int32_t kAsyncEnd = 'F';
inline constexpr int32_t kNestableAsyncBegin = 'b';
inline constexpr int32_t kNestableAsyncEnd = 'e';
inline constexpr int32_t kNestableAsyncInstant = 'n';
inline constexpr int32_t kFlowBegin = 's';
inline constexpr int32_t kFlowStep = 't';
inline constexpr int32_t kFlowEnd = 'f';
inline constexpr int32_t kMetadata = 'M';
inline constexpr int32_t kCounter = 'C';
inline constexpr int32_t kSample = 'P';
inline constexpr int32_t kCreateObject = 'N';
inline constexpr int32_t kSnapshotObject = 'O';
inline constexpr int32_t kDeleteObject = 'D';
inline constexpr int32_t kMemoryDump = 'v';
inline constexpr int32_t kMark = 'R';
inline constexpr int32_t kClockSync = 'c';
inline constexpr int32_t kEnterContext = '(';
inline constexpr int32_t kLeaveContext = ')';
inline constexpr int32_t kLinkIds = '=';
}  // namespace legacy_phase

// FrameTimelineEvent (protos/third_party/android/frameworks/native/tracing/
// frameworks_native_trace_packet.proto), TracePacket field 76.
namespace frame_timeline_event {
inline constexpr uint32_t kExpectedDisplayFrameStart = 1;  // ExpectedDisplayFrameStart
inline constexpr uint32_t kActualDisplayFrameStart = 2;    // ActualDisplayFrameStart
inline constexpr uint32_t kExpectedSurfaceFrameStart = 3;  // ExpectedSurfaceFrameStart
inline constexpr uint32_t kActualSurfaceFrameStart = 4;    // ActualSurfaceFrameStart
inline constexpr uint32_t kFrameEnd = 5;                   // FrameEnd
}  // namespace frame_timeline_event
namespace frame_timeline_expected_display {
inline constexpr uint32_t kCookie = 1;  // int64
inline constexpr uint32_t kToken = 2;   // int64
inline constexpr uint32_t kPid = 3;     // int32
}  // namespace frame_timeline_expected_display
namespace frame_timeline_actual_display {
inline constexpr uint32_t kCookie = 1;                           // int64
inline constexpr uint32_t kToken = 2;                            // int64
inline constexpr uint32_t kPid = 3;                              // int32
inline constexpr uint32_t kPresentType = 4;                      // PresentType
inline constexpr uint32_t kOnTimeFinish = 5;                     // bool
inline constexpr uint32_t kGpuComposition = 6;                   // bool
inline constexpr uint32_t kJankType = 7;                         // int32 (JankType bits)
inline constexpr uint32_t kPredictionType = 8;                   // PredictionType
inline constexpr uint32_t kJankSeverityType = 9;                 // JankSeverityType
inline constexpr uint32_t kPresentDelayMillis = 10;              // float
inline constexpr uint32_t kJankSeverityScore = 11;               // float
inline constexpr uint32_t kJankTypeExperimental = 12;            // int32
inline constexpr uint32_t kPresentTypeExperimental = 13;         // PresentType
inline constexpr uint32_t kJankDebugMetadata = 14;               // float
inline constexpr uint32_t kLatchedUnsignaledCount = 15;          // int64
inline constexpr uint32_t kAddressableUnsignaledLatchCount = 16; // int64
}  // namespace frame_timeline_actual_display
namespace frame_timeline_expected_surface {
inline constexpr uint32_t kCookie = 1;             // int64
inline constexpr uint32_t kToken = 2;              // int64
inline constexpr uint32_t kDisplayFrameToken = 3;  // int64
inline constexpr uint32_t kPid = 4;                // int32
inline constexpr uint32_t kLayerName = 5;          // string
}  // namespace frame_timeline_expected_surface
namespace frame_timeline_actual_surface {
inline constexpr uint32_t kCookie = 1;                      // int64
inline constexpr uint32_t kToken = 2;                       // int64
inline constexpr uint32_t kDisplayFrameToken = 3;           // int64
inline constexpr uint32_t kPid = 4;                         // int32
inline constexpr uint32_t kLayerName = 5;                   // string
inline constexpr uint32_t kPresentType = 6;                 // PresentType
inline constexpr uint32_t kOnTimeFinish = 7;                // bool
inline constexpr uint32_t kGpuComposition = 8;              // bool
inline constexpr uint32_t kJankType = 9;                    // int32 (JankType bits)
inline constexpr uint32_t kPredictionType = 10;             // PredictionType
inline constexpr uint32_t kIsBuffer = 11;                   // bool
inline constexpr uint32_t kJankSeverityType = 12;           // JankSeverityType
inline constexpr uint32_t kPresentDelayMillis = 13;         // float
inline constexpr uint32_t kVsyncResyncedJitterMillis = 14;  // float
inline constexpr uint32_t kJankSeverityScore = 15;          // float
inline constexpr uint32_t kJankTypeExperimental = 16;       // int32
inline constexpr uint32_t kPresentTypeExperimental = 17;    // PresentType
inline constexpr uint32_t kJankDebugMetadata = 18;          // float
inline constexpr uint32_t kLatchedFenceState = 19;          // LatchedFenceState
inline constexpr uint32_t kAnimationTimeMillis = 20;        // float
}  // namespace frame_timeline_actual_surface
namespace frame_timeline_frame_end {
inline constexpr uint32_t kCookie = 1;  // int64
}  // namespace frame_timeline_frame_end
// FrameTimelineEvent.JankType bits.
namespace frame_timeline_jank {
inline constexpr int32_t kUnspecified = 0;
inline constexpr int32_t kNone = 1;
inline constexpr int32_t kSfScheduling = 2;
inline constexpr int32_t kPredictionError = 4;
inline constexpr int32_t kDisplayHal = 8;
inline constexpr int32_t kSfCpuDeadlineMissed = 16;
inline constexpr int32_t kSfGpuDeadlineMissed = 32;
inline constexpr int32_t kAppDeadlineMissed = 64;
inline constexpr int32_t kBufferStuffing = 128;
inline constexpr int32_t kUnknown = 256;
inline constexpr int32_t kSfStuffing = 512;
inline constexpr int32_t kDropped = 1024;
inline constexpr int32_t kNonAnimating = 2048;
inline constexpr int32_t kAppResyncedJitter = 4096;
inline constexpr int32_t kDisplayNotOn = 8192;
inline constexpr int32_t kDisplayModeChangeInProgress = 16384;
inline constexpr int32_t kDisplayPowerModeChangeInProgress = 32768;
}  // namespace frame_timeline_jank

// WinscopeExtensions (protos/third_party/android/.../frameworks_native_winscope.proto): the
// extension fields grouped under TracePacket field 112.
namespace winscope_extensions {
inline constexpr uint32_t kAndroidInputEvent = 5;  // AndroidInputEvent
}  // namespace winscope_extensions

// AndroidInputEvent (.../winscope/android_input_event.proto): a oneof of these.
namespace android_input_event {
inline constexpr uint32_t kDispatcherMotionEvent = 1;                   // AndroidMotionEvent
inline constexpr uint32_t kDispatcherMotionEventRedacted = 2;           // AndroidMotionEvent
inline constexpr uint32_t kDispatcherKeyEvent = 3;                      // AndroidKeyEvent
inline constexpr uint32_t kDispatcherKeyEventRedacted = 4;              // AndroidKeyEvent
inline constexpr uint32_t kDispatcherWindowDispatchEvent = 5;           // AndroidWindowInputDispatchEvent
inline constexpr uint32_t kDispatcherWindowDispatchEventRedacted = 6;   // AndroidWindowInputDispatchEvent
}  // namespace android_input_event
namespace android_motion_event {
inline constexpr uint32_t kEventId = 1;           // fixed32
inline constexpr uint32_t kEventTimeNanos = 2;    // int64
inline constexpr uint32_t kSource = 3;            // uint32
inline constexpr uint32_t kAction = 4;            // int32
inline constexpr uint32_t kDeviceId = 5;          // int32
inline constexpr uint32_t kDisplayId = 6;         // sint32
inline constexpr uint32_t kClassification = 7;    // int32
inline constexpr uint32_t kFlags = 8;             // uint32
inline constexpr uint32_t kPointer = 9;           // repeated Pointer
inline constexpr uint32_t kOriginalEventId = 16;  // repeated fixed32, packed
inline constexpr uint32_t kDownTimeNanos = 17;    // int64
inline constexpr uint32_t kCursorPositionX = 18;  // float
inline constexpr uint32_t kCursorPositionY = 19;  // float
inline constexpr uint32_t kActionButton = 20;     // int32
inline constexpr uint32_t kButtonState = 21;      // uint32
inline constexpr uint32_t kMetaState = 22;        // uint32
inline constexpr uint32_t kPolicyFlags = 23;      // uint32
inline constexpr uint32_t kPrecisionX = 24;       // float
inline constexpr uint32_t kPrecisionY = 25;       // float
}  // namespace android_motion_event
namespace android_motion_event_pointer {
inline constexpr uint32_t kAxisValue = 1;  // repeated AxisValue
inline constexpr uint32_t kPointerId = 2;  // int32
inline constexpr uint32_t kToolType = 3;   // int32
}  // namespace android_motion_event_pointer
namespace android_motion_event_axis_value {
inline constexpr uint32_t kAxis = 1;   // int32
inline constexpr uint32_t kValue = 2;  // float
}  // namespace android_motion_event_axis_value
namespace android_key_event {
inline constexpr uint32_t kEventId = 1;         // fixed32
inline constexpr uint32_t kEventTimeNanos = 2;  // int64
inline constexpr uint32_t kDownTimeNanos = 3;   // int64
inline constexpr uint32_t kSource = 4;          // uint32
inline constexpr uint32_t kAction = 5;          // int32
inline constexpr uint32_t kDeviceId = 6;        // int32
inline constexpr uint32_t kDisplayId = 7;       // sint32
inline constexpr uint32_t kKeyCode = 8;         // int32
inline constexpr uint32_t kScanCode = 9;        // uint32
inline constexpr uint32_t kMetaState = 10;      // uint32
inline constexpr uint32_t kRepeatCount = 11;    // int32
inline constexpr uint32_t kFlags = 12;          // uint32
inline constexpr uint32_t kPolicyFlags = 13;    // uint32
}  // namespace android_key_event
namespace android_window_input_dispatch_event {
inline constexpr uint32_t kEventId = 1;            // fixed32
inline constexpr uint32_t kVsyncId = 2;            // int64
inline constexpr uint32_t kWindowId = 3;           // int32
inline constexpr uint32_t kDispatchedPointer = 4;  // repeated DispatchedPointer
inline constexpr uint32_t kResolvedFlags = 5;      // uint32
}  // namespace android_window_input_dispatch_event
namespace android_window_input_dispatch_event_pointer {
inline constexpr uint32_t kPointerId = 1;          // int32
inline constexpr uint32_t kXInDisplay = 2;         // float
inline constexpr uint32_t kYInDisplay = 3;         // float
inline constexpr uint32_t kAxisValueInWindow = 4;  // repeated AndroidMotionEvent.Pointer.AxisValue
}  // namespace android_window_input_dispatch_event_pointer

// GpuMemTotalEvent (protos/perfetto/trace/gpu/gpu_mem_event.proto).
namespace gpu_mem_total_event {
inline constexpr uint32_t kGpuId = 1;  // uint32
inline constexpr uint32_t kPid = 2;    // uint32; 0 = the GPU's global total
inline constexpr uint32_t kSize = 3;   // uint64, bytes
}  // namespace gpu_mem_total_event

// The generic kernel data source (protos/perfetto/trace/generic_kernel/): scheduling, thread
// lifetimes and CPU frequency from kernels other than Linux's ftrace.
namespace generic_kernel_task_state_event {
inline constexpr uint32_t kCpu = 1;    // int32, meaningful with TASK_STATE_RUNNING only
inline constexpr uint32_t kComm = 2;   // string
inline constexpr uint32_t kTid = 3;    // int64
inline constexpr uint32_t kState = 4;  // enum TaskStateEnum
inline constexpr uint32_t kPrio = 5;   // int32
}  // namespace generic_kernel_task_state_event
// (TaskStateEnum values: tw::GenericTaskState, libs/trace/events/generic_kernel_events.h.)
namespace generic_kernel_task_rename_event {
inline constexpr uint32_t kTid = 1;   // int64
inline constexpr uint32_t kComm = 2;  // string
}  // namespace generic_kernel_task_rename_event
namespace generic_kernel_process_tree {
inline constexpr uint32_t kProcesses = 1;  // repeated Process
inline constexpr uint32_t kThreads = 2;    // repeated Thread
}  // namespace generic_kernel_process_tree
namespace generic_kernel_process_tree_process {
inline constexpr uint32_t kPid = 1;      // int64
inline constexpr uint32_t kPpid = 2;     // int64
inline constexpr uint32_t kCmdline = 3;  // string
}  // namespace generic_kernel_process_tree_process
namespace generic_kernel_process_tree_thread {
inline constexpr uint32_t kTid = 1;           // int64
inline constexpr uint32_t kPid = 2;           // int64
inline constexpr uint32_t kComm = 3;          // string
inline constexpr uint32_t kIsMainThread = 4;  // bool
inline constexpr uint32_t kIsIdle = 5;        // bool
}  // namespace generic_kernel_process_tree_thread
namespace generic_kernel_cpu_frequency_event {
inline constexpr uint32_t kCpu = 1;     // int32
inline constexpr uint32_t kFreqHz = 2;  // int64
}  // namespace generic_kernel_cpu_frequency_event

// AndroidUserList (protos/perfetto/trace/android/user_list.proto).
namespace android_user_list {
inline constexpr uint32_t kUsers = 1;  // repeated UserInfo
inline constexpr uint32_t kError = 2;  // int32, negative on failure
}  // namespace android_user_list
namespace android_user_list_user_info {
inline constexpr uint32_t kType = 1;  // string, e.g. "android.os.usertype.full.SECONDARY"
inline constexpr uint32_t kUid = 2;   // int32, the Android user id
}  // namespace android_user_list_user_info

// TrackEvent extensions of frameworks/base (frameworks_base_track_event.proto).
namespace frameworks_base_track_event {
inline constexpr uint32_t kProcessStartEvent = 2010;  // AndroidProcessStartEvent
inline constexpr uint32_t kBinderDiedEvent = 2013;    // AndroidBinderDiedEvent
}  // namespace frameworks_base_track_event
namespace android_process_start_event {
inline constexpr uint32_t kUid = 1;                     // int32
inline constexpr uint32_t kPid = 2;                     // int32
inline constexpr uint32_t kProcessName = 3;             // string
inline constexpr uint32_t kBindApplicationDelayMs = 4;  // int64
inline constexpr uint32_t kProcessStartDelayMs = 5;     // int64
inline constexpr uint32_t kHostingName = 6;             // string
inline constexpr uint32_t kHostingType = 7;             // enum HostingTypeId
inline constexpr uint32_t kTriggerType = 8;             // enum TriggerType
inline constexpr uint32_t kHostingZygoteVariant = 9;    // enum HostingZygoteVariant
inline constexpr uint32_t kStartSeqId = 10;             // int64
inline constexpr uint32_t kPackageUid = 11;             // int32
inline constexpr uint32_t kCallerUid = 12;              // int32
inline constexpr uint32_t kDefiningUid = 13;            // int32
}  // namespace android_process_start_event
namespace android_binder_died_event {
inline constexpr uint32_t kUid = 1;          // int32
inline constexpr uint32_t kPid = 2;          // int32
inline constexpr uint32_t kProcessName = 3;  // string
inline constexpr uint32_t kStartSeqId = 4;   // int64
}  // namespace android_binder_died_event

// GraphicsFrameEvent (protos/perfetto/trace/android/graphics_frame_event.proto).
namespace graphics_frame_event {
inline constexpr uint32_t kBufferEvent = 1;  // BufferEvent
}  // namespace graphics_frame_event
namespace graphics_frame_event_buffer_event {
inline constexpr uint32_t kFrameNumber = 1;  // uint32
inline constexpr uint32_t kType = 2;         // enum BufferEventType
inline constexpr uint32_t kLayerName = 3;    // string
inline constexpr uint32_t kDurationNs = 4;   // uint64
inline constexpr uint32_t kBufferId = 5;     // uint32
}  // namespace graphics_frame_event_buffer_event
// GraphicsFrameEvent.BufferEventType values with a phase meaning.
namespace graphics_buffer_event_type {
inline constexpr uint32_t kDequeue = 1;
inline constexpr uint32_t kQueue = 2;
inline constexpr uint32_t kAcquireFence = 4;
inline constexpr uint32_t kLatch = 5;
inline constexpr uint32_t kPresentFence = 8;
}  // namespace graphics_buffer_event_type

}  // namespace tw::pf
