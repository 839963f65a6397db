"""Manual pages several advisors cite: one home per page, so a moved page is fixed once.

A rule cites a variable's entry as `f"{MYSQL_INNODB_PARAMETERS}#sysvar_innodb_io_capacity"`.
"""

from __future__ import annotations

MYSQL_INNODB_PARAMETERS = "https://dev.mysql.com/doc/refman/8.0/en/innodb-parameters.html"
MYSQL_SERVER_VARIABLES = "https://dev.mysql.com/doc/refman/8.0/en/server-system-variables.html"
MYSQL_BINLOG_OPTIONS = "https://dev.mysql.com/doc/refman/8.0/en/replication-options-binary-log.html"
MYSQL_REPLICA_OPTIONS = "https://dev.mysql.com/doc/refman/8.0/en/replication-options-replica.html"
MYSQL_MYSQLD_SAFE = "https://dev.mysql.com/doc/refman/8.0/en/mysqld-safe.html"
MARIADB_INNODB_VARIABLES = "https://mariadb.com/kb/en/innodb-system-variables/"
MARIADB_SERVER_VARIABLES = "https://mariadb.com/kb/en/server-system-variables/"
MARIADB_REPLICATION_VARIABLES = "https://mariadb.com/kb/en/replication-and-binary-log-system-variables/"
MARIADB_BINLOG_FORMATS = "https://mariadb.com/kb/en/binary-log-formats/"
MARIADB_MEMORY_ALLOCATION = "https://mariadb.com/kb/en/mariadb-memory-allocation/"
MYSQL_56_REDO_LOG = "https://dev.mysql.com/doc/refman/5.6/en/innodb-redo-log.html"
# MariaDB: "Ever since MariaDB 10.0 (and MySQL 5.6.8) ... the redo log files will be resized on server startup"
MARIADB_REDO_RESIZE_AT_STARTUP = "https://github.com/MariaDB/server/commit/2cc360bdf2"
# MySQL: "It often makes sense to set the total size of the log files as large as the buffer pool or even larger."
MYSQL_INNODB_CHECKPOINTS = "https://dev.mysql.com/doc/refman/5.7/en/innodb-checkpoints.html"
# MariaDB: "For the maximum capacity in the Redo Log, the Redo Log size should be the same as the
# innodb_buffer_pool_size".
MARIADB_CONFIGURE_REDO = "https://mariadb.com/kb/en/configure-the-innodb-redo-log"
