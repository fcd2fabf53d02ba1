/**
 * One exploration's runs. {@code Exploration}, the public builder, keeps what the user described in an
 * {@link dev.frontrun.internal.exploration.ExplorationDraft}, which checks it as it is told and freezes it into
 * {@link dev.frontrun.internal.exploration.ExplorationSettings} for each run; an
 * {@link dev.frontrun.internal.exploration.ExplorationRun} explores under them, analyses the failure, checks the
 * advice, renders the texts and writes the report. Another level (the advice check, {@code whatIf}) is a new run
 * of a copy of the settings.
 */
package dev.frontrun.internal.exploration;
