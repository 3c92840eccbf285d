-- Every payload with its CRC-32 (zlib's, of the packed bytes), checked on every read: a row whose
-- bytes were damaged on disk (a bad sector, a stray write, a hostile edit) is recomputed, not
-- served as immutable truth (issue 34). The cache is derivable: the 0002 table is dropped rather
-- than checksummed row by row.
-- Never edit this file once released; add 0004_… instead.
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
    payload_crc32  INTEGER NOT NULL,
    payload        BLOB    NOT NULL,
    PRIMARY KEY (mission, vehicle, samples, frame, data_hash, engine_version)
);
CREATE INDEX trajectory_cache_lru ON trajectory_cache (last_used, bytes);
