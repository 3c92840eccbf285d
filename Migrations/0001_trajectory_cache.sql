-- Trajectory sample cache. Derivable data: the key holds everything the samples depend on
-- (data_hash of the mission data, engine_version of the trajectory code), so a change makes new
-- rows instead of invalidating old ones. payload: packed little-endian IEEE 754 doubles.
-- Never edit this file once released; add 0002_… instead.
CREATE TABLE trajectory_cache (
    mission        TEXT    NOT NULL,
    vehicle        TEXT    NOT NULL,
    samples        INTEGER NOT NULL,
    frame          TEXT    NOT NULL,
    data_hash      TEXT    NOT NULL,
    engine_version TEXT    NOT NULL,
    payload        BLOB    NOT NULL,
    created_at     TEXT    NOT NULL,
    PRIMARY KEY (mission, vehicle, samples, frame, data_hash, engine_version)
);
