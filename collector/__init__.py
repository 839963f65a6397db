"""`innotune collect`: take a snapshot of a running MySQL or MariaDB server for the audit.

The collector connects with the least privileges it can (docs/collector.md lists them), reads
SHOW GLOBAL VARIABLES, SHOW GLOBAL STATUS twice, SHOW ENGINE INNODB STATUS and the schema-facts
query, optionally adds this machine's hardware facts, strips passwords, query texts and row data,
and writes the files `innotune audit` reads or uploads them to the service as one snapshot.
"""
