-- The battery's gauges over time (the android.power data source's batt.* counters).

-- The battery's readings, one row per time any of them was sampled; a column is NULL when that
-- reading was not sampled then.
CREATE PERFETTO VIEW android_battery_charge(
  -- When the readings were taken (trace clock, ns).
  ts TIMESTAMP,
  -- Average current, in µA (batt.current.avg_ua; negative when discharging on most devices).
  current_avg_ua DOUBLE,
  -- Charge left, in percent of full (batt.capacity_pct).
  capacity_percent DOUBLE,
  -- Charge left, in µAh (batt.charge_uah).
  charge_uah DOUBLE,
  -- Instantaneous current, in µA (batt.current_ua).
  current_ua DOUBLE,
  -- Voltage, in µV (batt.voltage_uv).
  voltage_uv DOUBLE,
  -- Energy counter, in µWh (batt.energy_counter_uwh).
  energy_counter_uwh DOUBLE,
  -- Power, in mW (batt.power_mw).
  power_mw DOUBLE
) AS
SELECT
  c.ts,
  MAX(IIF(t.name = 'batt.current.avg_ua', c.value, NULL)) AS current_avg_ua,
  MAX(IIF(t.name = 'batt.capacity_pct', c.value, NULL)) AS capacity_percent,
  MAX(IIF(t.name = 'batt.charge_uah', c.value, NULL)) AS charge_uah,
  MAX(IIF(t.name = 'batt.current_ua', c.value, NULL)) AS current_ua,
  MAX(IIF(t.name = 'batt.voltage_uv', c.value, NULL)) AS voltage_uv,
  MAX(IIF(t.name = 'batt.energy_counter_uwh', c.value, NULL)) AS energy_counter_uwh,
  MAX(IIF(t.name = 'batt.power_mw', c.value, NULL)) AS power_mw
FROM counter AS c
JOIN counter_track AS t ON t.id = c.track_id
WHERE t.name GLOB 'batt.*'
GROUP BY c.ts
ORDER BY c.ts;
