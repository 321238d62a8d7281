package io.agentoutcomes.app.config;

import java.util.List;

/**
 * The headings of the settings table, in the order it shows them. A heading may hold the settings of several groups
 * (Analytics: the analytics', pricing's and budgets'); within one, settings stand in the order they are declared.
 */
final class Headings {
    static final String KAFKA = "Kafka and schema registry";
    static final String SERVICE = "Topics, state and HTTP";
    static final String HTTP_SECURITY = "HTTP authentication and TLS";
    static final String EMBEDDED = "Embedded broker and registry";
    static final String POLICY = "Classification policy";
    static final String BACKOFF = "Backoff";
    static final String RETRY = "Retries";
    static final String STATE = "Task state and memory";
    static final String ANALYTICS = "Analytics";
    static final String PROVIDERS = "Provider pacing and circuits";
    static final String RETRY_BUDGET = "Provider retry budget";
    static final String METRICS = "Metrics";
    static final String LIMITS = "Input and replay bounds";

    static final List<String> ORDER = List.of(KAFKA, SERVICE, HTTP_SECURITY, EMBEDDED, POLICY, BACKOFF, RETRY, STATE, ANALYTICS,
            PROVIDERS, RETRY_BUDGET, METRICS, LIMITS);

    private Headings() {
    }
}
