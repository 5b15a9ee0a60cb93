-- Interrupts as slices: hard IRQ handlers (irq_handler_entry/exit) and soft IRQs
-- (softirq_entry/exit), on their CPUs' tracks.

-- One row per hard IRQ handler run.
CREATE PERFETTO VIEW linux_hard_irqs(
  -- When the handler started (trace clock, ns).
  ts TIMESTAMP,
  -- How long it ran, in ns.
  dur DURATION,
  -- The IRQ's name ("IRQ (<handler>)").
  name STRING,
  -- The IRQ's slice (slice.id).
  id JOINID(slice.id),
  -- The IRQ it interrupted, if it nested in another (slice.id).
  parent_id JOINID(slice.id)
) AS
SELECT s.ts, s.dur, s.name, s.id, s.parent_id
FROM slice AS s
JOIN track AS t ON t.id = s.track_id
WHERE t.type = 'cpu_irq';

-- One row per soft IRQ run.
CREATE PERFETTO VIEW linux_soft_irqs(
  -- When the soft IRQ started (trace clock, ns).
  ts TIMESTAMP,
  -- How long it ran, in ns.
  dur DURATION,
  -- The soft IRQ's name (its vector: TIMER, NET_RX, RCU, ...).
  name STRING,
  -- The soft IRQ's slice (slice.id).
  id JOINID(slice.id)
) AS
SELECT s.ts, s.dur, s.name, s.id
FROM slice AS s
JOIN track AS t ON t.id = s.track_id
WHERE t.type = 'cpu_softirq';

-- Every interrupt, hard and soft.
CREATE PERFETTO VIEW linux_irqs(
  -- When it started (trace clock, ns).
  ts TIMESTAMP,
  -- How long it ran, in ns.
  dur DURATION,
  -- Its name.
  name STRING,
  -- Its slice (slice.id).
  id JOINID(slice.id),
  -- For hard IRQs: the IRQ it interrupted, if any (slice.id); NULL for soft IRQs.
  parent_id JOINID(slice.id),
  -- 1 for a soft IRQ, 0 for a hard one.
  is_soft_irq BOOL
) AS
SELECT ts, dur, name, id, parent_id, 0 AS is_soft_irq FROM linux_hard_irqs
UNION ALL
SELECT ts, dur, name, id, NULL AS parent_id, 1 AS is_soft_irq FROM linux_soft_irqs;

-- What each IRQ number is called, as the kernel listed them in /proc/interrupts at the start
-- of the trace (the interrupt_info packet).
CREATE PERFETTO VIEW linux_interrupt_mapping(
  -- The mapping's id.
  id ID,
  -- The IRQ number.
  irq_id LONG,
  -- The IRQ's name ("arch_timer", "arm-pmu", ...).
  name STRING,
  -- The machine whose kernel listed it.
  machine_id JOINID(machine.id)
) AS
SELECT id, irq_id, name, machine_id
FROM __intrinsic_linux_interrupt_mapping;
