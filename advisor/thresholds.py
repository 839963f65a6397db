"""Every threshold an advisor uses, in one settings object (no scattered literals).

Each advisor owns one frozen section; `THRESHOLDS` is the default instance. A rule reads
`ctx.thresholds.<advisor>.<name>`, so tests and future per-organisation settings can swap
the whole object.
"""

from __future__ import annotations

from msgspec import Struct, field

GIB = 1024**3
MIB = 1024**2


class BufferPoolThresholds(Struct, frozen=True):
    """Buffer pool sizing."""

    # Share of usable memory the pool may take on a dedicated server; the rest is for the
    # OS, per-connection buffers and the other caches.
    target_fraction_of_memory: float = 0.70
    # Below this share of the target (and smaller than the data) the pool counts as undersized.
    undersized_fraction_of_target: float = 0.5
    # A pool larger than this share of usable memory risks swapping or the OOM killer.
    oversized_fraction_of_memory: float = 0.90
    # Misses per read request above this mean reads go to disk too often.
    max_miss_rate: float = 0.01
    # Where the pool is sized to the data (a ci box, or beside big MyISAM/Aria tables): the pool
    # holds twice the InnoDB data and indexes. Besides table pages it holds undo pages, the
    # change buffer and the free pages reads and LRU flushing need, and data grows. Measured on a
    # real MariaDB 10.11 under sysbench (bench/tuning_gain.py, workload a), 512M (1.1x of 0.37 GiB)
    # and 896M (2.4x) both ran at ~0.93x the TPS of a 16G pool: the size here is a judgement, not
    # a measured optimum.
    dataset_headroom: float = 2.0
    # Pools at least this large benefit from several instances (MySQL, MariaDB < 10.5).
    multi_instance_min_bytes: int = 1 * GIB
    # Never suggest more instances than this, nor instances smaller than multi_instance_min_bytes.
    max_recommended_instances: int = 8
    # A miss rate only counts when the pool also reads at least this many pages per second
    # from disk (an idle server with 3 misses in 10 requests is not short of memory).
    min_disk_reads_per_second: float = 5.0
    # Dump/load warm-up is worth recommending from this pool size on.
    warmup_min_bytes: int = 1 * GIB
    # Recommended sizes are whole GiB from this size on (128 MiB steps below it).
    whole_gib_from_bytes: int = 8 * GIB
    # On a dedicated server a pool under this share of usable memory was never sized (the 128 MiB
    # default is 0.5% of 24 GiB): a warning on any evidence, or none, unless an input shows it suffices.
    misconfigured_fraction_of_memory: float = 0.05
    # Non-InnoDB tables (MyISAM, Aria: cached by the OS or their own caches) at or above this share of
    # usable memory are another big consumer: the server is not all InnoDB's to grow into.
    other_engines_max_fraction_of_memory: float = 0.10
    # Schema facts with InnoDB data at least this many times the pool are strong evidence that it is
    # short (below that, the working set may still fit: fair).
    strong_data_multiple_of_pool: float = 2.0


class RedoLogThresholds(Struct, frozen=True):
    """Redo log capacity."""

    target_hours_of_writes: float = 1.0
    min_capacity_bytes: int = 512 * MIB
    # The minimum grows with the host's memory as MySQL's innodb_dedicated_server sizes the log
    # (8.0.14–8.0.29: 512 MiB under 8 GiB, 1 GiB up to 128 GiB, 2 GiB above): (memory at least, minimum).
    min_capacity_by_memory: tuple[tuple[int, int], ...] = ((128 * GIB, 2 * GIB), (8 * GIB, 1 * GIB))
    max_capacity_bytes: int = 128 * GIB
    # Recommend a change only when the current capacity is off by more than this factor.
    tolerance_factor: float = 2.0
    # Checkpoint age above this share of capacity means flushing cannot keep up.
    max_checkpoint_age_fraction: float = 0.75
    # When the checkpoint age runs high, size the log so that age fills at most this share.
    target_checkpoint_age_fraction: float = 0.5
    log_waits_per_second: float = 0.01
    # Raise innodb_log_buffer_size to at least this when transactions wait for log buffer space.
    min_log_buffer_bytes: int = 64 * MIB
    # Room over the 10%-of-redo BLOB limit (MySQL 5.6, MariaDB 10.0/10.1) for the largest row.
    blob_headroom: float = 1.25
    # Recommended redo sizes are rounded up to a multiple of this.
    size_step_bytes: int = 256 * MIB
    # Only dirty pages need redo: what can be dirty is what innodb_max_dirty_pages_pct lets the
    # (recommended) pool hold dirty, or the InnoDB data plus this headroom when schema facts give less.
    dirty_data_headroom: float = 1.25
    # Hot pages are rewritten while dirty, each change adding redo: the target may reach this many
    # times what can be dirty (the manuals: "as large as the buffer pool or even larger"), no more.
    redo_per_dirty_byte: float = 2.0
    # A log above this many times the bound (and the target) is oversized: it buys nothing and only
    # lengthens crash recovery (measured: 11.5 GiB beside a 512 MiB pool, 15.8 s against 3.6 s).
    oversized_factor: float = 2.0


class FlushingThresholds(Struct, frozen=True):
    """innodb_io_capacity and friends, by storage type."""

    io_capacity_hdd: int = 200
    io_capacity_ssd: int = 2000
    io_capacity_nvme: int = 10000
    io_capacity_network: int = 1000
    # Never recommend more than this share of the device's measured IOPS.
    max_share_of_device_iops: float = 0.5
    # Recommend a change only when innodb_io_capacity is off the target by more than this factor.
    tolerance_factor: float = 2.0
    # Dirty pages at this share of innodb_max_dirty_pages_pct mean flushing falls behind.
    dirty_share_of_max_pct: float = 0.9
    # innodb_io_capacity_max: twice innodb_io_capacity, never below this (the servers' own rule).
    min_io_capacity_max: int = 2000


class GroupCommitThresholds(Struct, frozen=True):
    """When a binlog group-commit delay pays."""

    min_commits_per_second: float = 200.0
    min_threads_running: int = 8
    slow_fsync_ms: float = 1.0
    delay_microseconds: int = 1000
    # Pending fsyncs in a snapshot (Innodb_data_pending_fsyncs + Innodb_os_log_pending_fsyncs) at or
    # above this mean fsyncs queue up: the storage is slow to sync.
    min_pending_fsyncs: int = 1
    # Commits per binlog/redo fsync at or above this: commits already group well, a delay adds little.
    grouped_commits_per_fsync: float = 4.0
    # Wait for at most this share of the threads seen running before syncing without further delay.
    group_share_of_running: float = 0.5
    # A configured per-commit wait above this is mostly added latency.
    max_delay_microseconds: int = 10_000
    # Com_begin at this share of Com_commit or more: the workload wraps its writes in BEGIN ... COMMIT,
    # so the DML counters count statements inside those transactions, not extra commits.
    explicit_transaction_begin_share: float = 0.9


class DurabilityThresholds(Struct, frozen=True):
    """Crash-safety loss estimates."""

    # Servers without innodb_flush_log_at_timeout (before MySQL 5.6.6 / MariaDB 10.0) flush the
    # redo log once a second.
    log_flush_interval_seconds: int = 1


class ReplicationThresholds(Struct, frozen=True):
    """Binary log retention."""

    binlog_retention_days: int = 7


class IsolationThresholds(Struct, frozen=True):
    """Read views that pin purge."""

    # A read-only transaction holding a read view this long (seconds) at REPEATABLE READ is reported:
    # every row version written meanwhile stays unpurgeable.
    read_view_seconds: int = 120
    max_transactions_listed: int = 3


class MemoryThresholds(Struct, frozen=True):
    """Memory budget."""

    # Share of usable memory that global + per-connection buffers may reach. In a container (a memory
    # limit below the host's memory) this share is the whole reserve: no OS lives inside the cgroup, but
    # the kernel memory charged to it (page tables, socket buffers) and the page cache of the files
    # InnoDB does not open with O_DIRECT (redo, binary log, temporary files) need a little room.
    max_fraction_of_memory: float = 0.95
    # On a host, memory kept back for the OS and its page cache ...
    os_reserve_bytes: int = 1 * GIB
    # ... but never more than this share of a small machine.
    os_reserve_max_fraction: float = 0.25
    # The server's own memory beyond its configured buffers, counted in a container (on a host the OS
    # reserve holds it): code and libraries, the data dictionary,
    # thread stacks of the background threads, InnoDB's fixed allocations. Measured with
    # bench/server_memory.py on MariaDB 10.11.19 with Debian's defaults: 99 MiB resident when idle with a
    # 128M pool (InnoDB's "Total large memory allocated" is the pool + 32 MiB at 128M and at 1408M).
    server_base_bytes: int = 128 * MIB
    # An unused MyISAM key cache is not resident: at start the server writes its block headers and
    # hash links, not its blocks. Measured with bench/server_memory.py on MariaDB 10.11.19 (no MyISAM
    # table): key_buffer_size 8M → 1G added 186–189 MiB resident, 0.18–0.19 of the size (the same mysys code
    # serves MySQL). Counted so when the schema facts list every table and none is MyISAM.
    key_cache_resident_fraction: float = 0.19
    # With SHOW GLOBAL STATUS, per-connection buffers are counted at Max_used_connections times this
    # margin (capped at max_connections) instead of at max_connections: the busiest moment seen, with
    # room for a busier one (MySQLTuner's "peak" model counts them at Max_used_connections itself) ...
    observed_connections_margin: float = 1.5
    # ... and without a trustworthy high-water mark (no status, or under an hour of it) the connections
    # busy at once are assumed: this many per CPU (a query holds its sort/join/read buffers only while
    # it runs, and more running queries than a few per CPU only queue for it — MariaDB's thread pool
    # runs one per CPU, the MySQL manual's innodb_thread_concurrency advice is 2 × CPUs + disks), at
    # least `busy_connections_min` (workload c: 16 sysbench threads on 2 CPUs), and
    # `busy_connections_cpus_unknown` when the CPUs are not given ...
    busy_connections_per_cpu: int = 8
    busy_connections_min: int = 16
    busy_connections_cpus_unknown: int = 32
    # ... and every other allowed connection open but idle, at this much each. Measured with
    # bench/server_memory.py --peak on MariaDB 10.11.19, Debian's defaults, 1408M pool in a 2 GiB cgroup
    # (bench/results/server_memory_peak.json): resident beyond the pool 120 MiB idle, 198 MiB with 16
    # busy + 135 idle connections, 397 MiB with 150 busy — 1.85 MiB per busy connection (the budget
    # counts its buffers, 2.9 MiB), about 0.36 MiB per idle one (thread, its malloc arena, net buffer).
    idle_connection_bytes: int = 384 * 1024
    # memory.per_connection_buffer_raised: a buffer above its default is named when its excess, at the
    # connections the realistic peak counts, is at least this share of the limit (smaller ones are noise).
    raised_buffer_min_fraction_of_limit: float = 0.02
    # (A high-water mark over a weak window — under EvidenceThresholds' fair_uptime_seconds since startup
    # or FLUSH STATUS — is not used at all: max_connections is counted, advisor.derived.evidence.)
    # MySQL 8.0+ TempTable engine: RAM for all in-memory temporary tables together when
    # temptable_max_ram is not in the inputs (its 8.0 default).
    temptable_ram_assumed_bytes: int = 1 * GIB
    # An in-memory temporary table limit (tmp_table_size / max_heap_table_size) is raised to match the
    # other only up to this share of usable memory: each session may hold such a table (MariaDB KB,
    # "MariaDB Memory Allocation": about 1% of RAM).
    max_temp_table_fraction_of_memory: float = 0.01


class ConnectionThresholds(Struct, frozen=True):
    """Connections and threads."""

    # Recommended max_connections = peak connections (Max_used_connections) times this.
    max_connections_headroom: float = 1.5
    # A peak below this share of max_connections (and max_connections at least
    # `oversized_min_max_connections`) means the limit is far above what is used.
    min_used_fraction: float = 0.05
    oversized_min_max_connections: int = 500
    # A peak at or above this share of max_connections is close to the limit.
    near_limit_fraction: float = 0.90
    # High-water marks (Max_used_connections) mean little after a short uptime.
    min_uptime_seconds: int = 86_400
    # Threads_created / Connections above this means the thread cache misses.
    thread_cache_miss_rate: float = 0.01
    # ... but only worth a change when threads are created at least this often.
    min_threads_created_per_second: float = 1.0


class UndoThresholds(Struct, frozen=True):
    """Purge and history list length."""

    history_list_warning: int = 100_000
    history_list_critical: int = 1_000_000
    long_transaction_seconds: int = 600
    # A transaction that has written this many undo log records is a batch worth splitting.
    large_transaction_undo_entries: int = 100_000
    # Transactions named in one finding (the rest are counted).
    max_transactions_listed: int = 5
    # innodb_purge_threads to recommend when purge falls behind.
    purge_threads_target: int = 4
    # History growth between two snapshots is a trend, not purge's batch rhythm, when it grew by at
    # least this share of where it started (a busy server's list swings by a few percent) ...
    history_trend_share: float = 0.5
    # ... and worth a finding when, at that rate, it reaches history_list_warning within this horizon.
    history_growth_horizon_seconds: int = 3600
    # A transaction holding a read view this long is named as what holds purge back: a minute is many
    # purge rounds, and no OLTP statement needs a snapshot that old.
    read_view_holder_seconds: int = 60


class MallocThresholds(Struct, frozen=True):
    """When an alternative allocator is worth it."""

    min_cpus: int = 8
    min_threads_running: int = 16


class PrimaryKeyThresholds(Struct, frozen=True):
    """Tables without primary keys."""

    max_tables_listed: int = 10
    # Random (UUID-like) primary keys matter once a table outgrows memory; below this, stay quiet.
    random_key_min_rows: int = 100_000


class ConfigValidityThresholds(Struct, frozen=True):
    """Option-file checks."""

    # Names shorter than this are never called a typo of a known name (too many near neighbours).
    typo_min_name_length: int = 8


class EvidenceThresholds(Struct, frozen=True):
    """How much a rate from SHOW GLOBAL STATUS is worth, by its window (advisor.derived.evidence).

    A rate is an average over a window: since startup (one snapshot: Uptime) or between two snapshots
    (their Uptime difference). InnoDB's own cycles set the scale: the master thread works in 1 s and
    10 s rounds, adaptive flushing and checkpoints settle over minutes, the buffer pool warms up over
    minutes to an hour, and a production day has its own cycle (batches, backups, peak hours).
    """

    # One snapshot: averages since startup cover a whole daily cycle from one day of uptime: strong.
    strong_uptime_seconds: int = 86_400
    # ... and are past warm-up (the pool loaded, the startup or bulk-load burst diluted) from an hour: fair.
    fair_uptime_seconds: int = 3_600
    # Two snapshots: ten minutes spans dozens of flush and checkpoint rounds, so one burst does not
    # decide the rate: strong.
    strong_window_seconds: int = 600
    # ... a minute spans a few 10 s master-thread rounds: fair. Less (a few seconds, the 20 s people
    # often use) is one burst or one stall: weak.
    fair_window_seconds: int = 60
    # A two-snapshot window that starts this soon after startup measures warm-up (a cold pool, a
    # loading phase): at most fair.
    warmup_seconds: int = 600
    # Weak evidence never moves a size by more than this factor (the rationale says what to measure).
    weak_max_change_factor: float = 2.0


class Thresholds(Struct, frozen=True):
    """All sections together."""

    buffer_pool: BufferPoolThresholds = field(default_factory=BufferPoolThresholds)
    redo_log: RedoLogThresholds = field(default_factory=RedoLogThresholds)
    flushing: FlushingThresholds = field(default_factory=FlushingThresholds)
    group_commit: GroupCommitThresholds = field(default_factory=GroupCommitThresholds)
    durability: DurabilityThresholds = field(default_factory=DurabilityThresholds)
    replication: ReplicationThresholds = field(default_factory=ReplicationThresholds)
    isolation: IsolationThresholds = field(default_factory=IsolationThresholds)
    memory: MemoryThresholds = field(default_factory=MemoryThresholds)
    connections: ConnectionThresholds = field(default_factory=ConnectionThresholds)
    undo_history: UndoThresholds = field(default_factory=UndoThresholds)
    malloc: MallocThresholds = field(default_factory=MallocThresholds)
    primary_keys: PrimaryKeyThresholds = field(default_factory=PrimaryKeyThresholds)
    config_validity: ConfigValidityThresholds = field(default_factory=ConfigValidityThresholds)
    evidence: EvidenceThresholds = field(default_factory=EvidenceThresholds)


THRESHOLDS = Thresholds()
