package io.agentoutcomes.app.config;

/** How log lines are written: {@code log.format}, {@code --log-format}. */
public enum LogFormat {
    /** One line of text per event (the default). */
    TEXT,
    /** One JSON object per line, for log shippers. */
    JSON
}
