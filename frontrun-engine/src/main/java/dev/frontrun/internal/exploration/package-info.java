/**
 * One exploration's runs. {@code Exploration}, the public builder, freezes what the user described into
 * {@link dev.frontrun.internal.exploration.ExplorationSettings}; an
 * {@link dev.frontrun.internal.exploration.ExplorationRun} explores under them, analyses the failure, checks the
 * advice, renders the texts and writes the report. Another level (the advice check, {@code whatIf}) is a new run
 * of a copy of the settings.
 */
package dev.frontrun.internal.exploration;
