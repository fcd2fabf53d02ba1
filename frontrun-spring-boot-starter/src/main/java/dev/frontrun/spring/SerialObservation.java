package dev.frontrun.spring;

import dev.frontrun.Exploration.Observation;
import dev.frontrun.hibernate.GeneratedColumns;
import java.util.Map;
import java.util.Set;

/**
 * What an exploration of the context observes when it checks, for want of an invariant, that every outcome is one a
 * serial order gives: the database's rows and each thread's answer, without the columns Hibernate sets to values no
 * serial order reproduces: a time, or a version the engine does not recognise as one by its name.
 */
final class SerialObservation {

    /** Read from the metamodel once the entity manager factories exist. */
    private final GeneratedColumns columns;

    SerialObservation(GeneratedColumns columns) {
        this.columns = columns;
    }

    /** The engine's default observation, less the columns Hibernate sets: asked for each exploration. */
    Observation observation() {
        Observation observation = Observation.database();
        for (Map.Entry<String, Set<String>> clock : columns.clocks().entrySet()) {
            observation = observation.ignoring(clock.getKey(), clock.getValue().toArray(String[]::new));
        }
        for (Map.Entry<String, GeneratedColumns.Version> version :
                columns.versions().entrySet()) {
            GeneratedColumns.Version column = version.getValue();
            // the engine compares an integer column named version as "incremented or not"; any other is left out
            if (!(column.counter() && column.column().equals("version"))) {
                observation = observation.ignoring(version.getKey(), column.column());
            }
        }
        return observation;
    }
}
