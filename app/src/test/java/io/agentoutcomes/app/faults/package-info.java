/**
 * The fault-injection suite and the hostile corpus (issue 10). Failsafe runs the {@code *IT} classes in the
 * {@code integration-test} phase of {@code ./mvnw -B verify}, after {@code app/target/agent-outcomes.jar} is packaged:
 * Kafka brokers ({@code kafka.Kafka}) and the service ({@code run}) are started as processes of that jar, killed with
 * SIGKILL and restarted, while a generator with its own tally produces a mixed load; everything is then counted with
 * {@code read_committed} consumers against the tally.
 *
 * <ul>
 *   <li>{@code CrashRecoveryIT}: the service killed three times at random points under load;</li>
 *   <li>{@code BrokerFailoverIT}: one of three brokers (replication 3, min ISR 2) killed and restarted;</li>
 *   <li>{@code InstanceFailoverIT}: one of two instances killed (state, pending retries, interactive queries);</li>
 *   <li>{@code HostileCorpusIT}: the cases of {@code HostileCorpus} interleaved with good records;</li>
 *   <li>{@code SecuredClusterIT}: the service over {@code SASL_SSL} and mutual TLS with only the documented ACLs, and
 *   {@code topic.create=false} refusing to start on missing topics.</li>
 * </ul>
 *
 * <p>One scenario: {@code ./mvnw -B -pl app -am verify -Dtest=NoSuchTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Dit.test=CrashRecoveryIT}; {@code -Dfault.seed=N} repeats a run's random kill points;
 * {@code -Dhostile.cases=deep-json,huge-json} runs only those cases of the corpus. Each prints its figures
 * (records, faults, recovery times, run time) and appends them to {@code app/target/fault-figures.txt}; broker and
 * service logs are under {@code app/target/faults/<scenario>/}.
 */
package io.agentoutcomes.app.faults;
