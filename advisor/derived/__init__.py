"""Facts several advisors share, each computed once per audit (`advisor.derived.cache`).

- `budget`: the memory budget (what the configuration may allocate against the memory limit);
- `evidence`: the strength of every status rate, graded by its window (strong / fair / weak);
- `pool_sizing`: buffer pool geometry, the pool size to recommend, whether the server is dedicated;
- `pool_pressure`: whether the pool is short, every input weighed by the strength of its evidence;
- `pool_plan`: the pool this audit recommends (one decision; the redo log is sized against it, and
  `final_pool_plan` is the one that survives the restart merge, for every other advisor to cite);
- `restart`: the file's context at the next restart, and the running context measurements belong to;
- `redo_sizing`: the redo capacity in effect, the write rate and the size every redo rule recommends;
- `io_sizing`: innodb_io_capacity targets by storage, and whether flushing lags;
- `replication`: binary logging, its format, the isolation level in effect;
- `workload`: commits per second;
- `settings`: where a setting's value came from, and whether innodb_dedicated_server sizes it.

Advisors read these; advisors never import each other.
"""
