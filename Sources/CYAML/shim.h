/* The system libyaml (Debian: libyaml-dev, pkg-config: yaml-0.1). */
#include <yaml.h>
