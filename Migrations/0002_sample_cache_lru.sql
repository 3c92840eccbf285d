-- Trajectory sample cache with a size cap, evicted least recently used first (issue 11).
-- The cache is derivable, so the 0001 table is dropped rather than copied: it may hold the
-- unbounded growth this migration exists to stop, and copying it would write all of it again.
--   bytes      stored-size estimate of the row (payload plus a per-row overhead), summed for the cap
--   last_used  microseconds since 1970-01-01T00:00:00Z of the last write or read
-- payload is the last column so that the key, bytes and last_used sit at the start of the row,
-- before its overflow pages. The index serves both the LRU scan and SUM(bytes) without
-- touching the rows.
-- Never edit this file once released; add 0003_… instead.
DROP TABLE trajectory_cache;
CREATE TABLE trajectory_cache (
    mission        TEXT    NOT NULL,
    vehicle        TEXT    NOT NULL,
    samples        INTEGER NOT NULL,
    frame          TEXT    NOT NULL,
    data_hash      TEXT    NOT NULL,
    engine_version TEXT    NOT NULL,
    bytes          INTEGER NOT NULL,
    last_used      INTEGER NOT NULL,
    created_at     TEXT    NOT NULL,
    payload        BLOB    NOT NULL,
    PRIMARY KEY (mission, vehicle, samples, frame, data_hash, engine_version)
);
CREATE INDEX trajectory_cache_lru ON trajectory_cache (last_used, bytes);
