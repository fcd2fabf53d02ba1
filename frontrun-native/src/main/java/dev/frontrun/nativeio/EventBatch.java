package dev.frontrun.nativeio;

import java.util.List;

/**
 * Events drained from the native ring buffer, oldest first.
 *
 * @param dropped events lost because the ring was full, counted since the library was loaded: a
 *                consumer must treat a rise in it as "I/O happened that I did not see", never as none
 */
public record EventBatch(List<IoEvent> events, long dropped) {

    public EventBatch {
        events = List.copyOf(events);
    }
}
