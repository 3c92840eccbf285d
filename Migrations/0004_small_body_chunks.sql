-- Small-body integration chunks (issue 35): the dense output of one chunk of one body's path,
-- as PropagatedArc.packed numbers, so a restarted server interpolates what an earlier one
-- integrated. The columns are trajectory_cache's, so one SampleCache implementation (its LRU
-- cap, its queued writer, its lock-free reads) serves both tables:
--   mission         "small-bodies"
--   vehicle         the path's key: the body, all digits of its elements, its force model
--   samples         the chunk's signed index (forward 0, 1, ...; backward -1, -2, ...)
--   frame           "ssb-ecliptic-j2000"
--   data_hash       the planetary kernel the path was integrated under
--   engine_version  the propagator's version
-- Every payload carries its CRC-32, checked on read, as 0003 gave trajectory_cache.
-- Never edit this file once released; add 0005_… instead.
CREATE TABLE small_body_chunks (
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
CREATE INDEX small_body_chunks_lru ON small_body_chunks (last_used, bytes);
