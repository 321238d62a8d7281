# Writes build/import-control.xml from the floors below: python3 build/import_control.py (from the repository root).
MODULES = [("avro", 1), ("client", 2), ("topology", 2), ("app", 3), ("bench", 4)]
FLOORS = {
  "avro": [["avro", "avro.registry"], ["avro.serde"]],
  "client": [["client"]],
  "topology": [["topology.topic", "topology.state", "topology.punctuation", "topology.fallback", "topology.ratelimit",
                "topology.attribution", "topology.timing"],
               ["topology.classify", "topology.schedule", "topology.replay"],
               ["topology.analytics", "topology.provider"],
               ["topology.ingest", "topology.pricing", "topology.budget"],
               ["topology.intake"],
               ["topology"]],
  "app": [["app.json", "app.http", "app.kafka", "app.streams", "app.fleet"],
          ["app.http.health", "app.registry"],
          ["app.http.query"],
          ["app.http.pages", "app.metrics"],
          ["app.config"],
          ["app.cli", "app.logging"],
          ["app.explain", "app.redrive"],
          ["app"]],
  "bench": [["bench"]],
}
P = "io.agentoutcomes."
floor_of = {}
for m, floors in FLOORS.items():
    for i, pkgs in enumerate(floors):
        for p in pkgs:
            floor_of[p] = (m, i + 1)
level = dict(MODULES)
def allowed(p):
    m, f = floor_of[p]
    lower_modules = [mm for mm, l in MODULES if l < level[m] and mm != m]
    lower = [q for q in sorted(floor_of) if floor_of[q][0] == m and floor_of[q][1] < f]
    return lower_modules, lower
# the tree of packages as checkstyle nests them
children = {}
for p in floor_of:
    parts = p.split(".")
    parent = ".".join(parts[:-1]) if len(parts) > 1 else ""
    children.setdefault(parent, []).append(p)
def cls(p):
    # a class of exactly that package, or a member or nested class of one (a static import), not a subpackage's
    return (P + p).replace(".", "\\.") + "\\.[A-Z][\\w.]*"
def element(p, indent):
    m, f = floor_of[p]
    mods, lower = allowed(p)
    pad = " " * indent
    out = [f'{pad}<subpackage name="{p.split(".")[-1]}">  <!-- {P}{p}: {m} floor {f} -->']
    out.append(f'{pad}  <allow class="{cls(p)}" regex="true"/>')
    for mm in mods:
        out.append(f'{pad}  <allow pkg="{P}{mm}"/>')
    for q in lower:
        out.append(f'{pad}  <allow class="{cls(q)}" regex="true"/>')
    out.append(f'{pad}  <disallow pkg="io.agentoutcomes"/>')
    for c in sorted(children.get(p, [])):
        out += element(c, indent + 2)
    out.append(f'{pad}</subpackage>')
    return out
order = "\n".join(
    f"       {m} (module level {level[m]}):\n" + "\n".join(
        f"         floor {i + 1}: " + ", ".join(pkgs) for i, pkgs in reversed(list(enumerate(FLOORS[m]))))
    for m, _ in sorted(MODULES, key=lambda x: -x[1]))
head = f'''<?xml version="1.0"?>
<!DOCTYPE import-control PUBLIC "-//Checkstyle//DTD ImportControl Configuration 1.4//EN"
    "https://checkstyle.org/dtds/import_control_1_4.dtd">
<!-- Packages point one way (docs/architecture.md): a package may import its own package, any package of a module
     below its module, and any package of its own module on a lower floor; nothing on its floor or above. Checked by
     build/checkstyle.xml's ImportControl in every module's validate phase, main sources only (a test may use its
     module's fixtures, such as topology's StageDriver, from any package).

     Modules, bottom up: avro; client and topology (neither imports the other); app; bench.
     Floors, top down (a new package goes on the floor above the highest it imports, and into this list):
{order}

     Each package's element allows exactly that: itself, the modules below, the lower floors of its module (each
     package's classes alone, by a pattern, so allowing app.http does not allow app.http.query), then refuses the rest of
     io.agentoutcomes; imports from outside the project fall through to the root, which allows them.
     Written by build/import_control.py from its table of floors: change the table there and run it. -->
<import-control pkg="io.agentoutcomes">
  <disallow pkg="io.agentoutcomes"/>
  <allow pkg="ch"/>
  <allow pkg="com"/>
  <allow pkg="io"/>
  <allow pkg="java"/>
  <allow pkg="javax"/>
  <allow pkg="jdk"/>
  <allow pkg="kafka"/>
  <allow pkg="net"/>
  <allow pkg="org"/>
  <allow pkg="picocli"/>
'''
body = []
for top in ["avro", "client", "topology", "app", "bench"]:
    body += element(top, 2)
open("build/import-control.xml", "w").write(head + "\n".join(body) + "\n</import-control>\n")
