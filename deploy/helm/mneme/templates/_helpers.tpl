{{/*
Names and labels. Every object carries app.kubernetes.io/name, /instance and (where it belongs to one
service) /component, so NetworkPolicies, PDBs and Services select exactly one service's pods.
*/}}
{{- define "mneme.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "mneme.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 40 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "mneme.selectorLabels" -}}
app.kubernetes.io/name: {{ include "mneme.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "mneme.labels" -}}
{{ include "mneme.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Selector labels of one component: pass (dict "root" $ "component" "ingest"). */}}
{{- define "mneme.componentSelectorLabels" -}}
{{ include "mneme.selectorLabels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "mneme.componentLabels" -}}
{{ include "mneme.labels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "mneme.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "mneme.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "mneme.image" -}}
{{- $tag := default .Chart.AppVersion .Values.image.tag }}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository $tag }}
{{- end }}
{{- end }}

{{/*
The services that serve Mneme's HTTP API (beside /healthz, /readyz, /metrics, which every service serves):
ingest (turns, claims), query (search, answer, subjects, claims) and reconciler (erasures, confirmations).
*/}}
{{- define "mneme.apiServices" -}}
ingest query reconciler
{{- end }}

{{/* The services that open a Postgres pool (internal/app needsDB). */}}
{{- define "mneme.dbServices" -}}
ingest query reconciler
{{- end }}

{{/* The services that load the embedding model (internal/app needsEmbedder). */}}
{{- define "mneme.embeddingServices" -}}
embedder query
{{- end }}

{{/*
The JetStream stream and durable consumer each work-queue consumer service pulls from, for KEDA's lag
trigger (pkg/bus stream names; the services' ConsumerName constants; a test checks both).
*/}}
{{- define "mneme.consumers" -}}
ingest: {stream: MNEME_INBOX, consumer: ingest}
extractor: {stream: MNEME_TURNS, consumer: extractor}
embedder: {stream: MNEME_PROPOSED, consumer: embedder}
{{- end }}

{{/* The in-release NATS chart's full name, computed the way that chart computes it. */}}
{{- define "mneme.natsFullname" -}}
{{- if .Values.nats.fullnameOverride }}
{{- .Values.nats.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default "nats" .Values.nats.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "mneme.natsURL" -}}
{{- if .Values.nats.enabled }}
{{- $scheme := ternary "tls" "nats" (ne .Values.natsAuth.tls.existingSecret "") }}
{{- printf "%s://%s.%s.svc.%s:4222" $scheme (include "mneme.natsFullname" .) .Release.Namespace .Values.clusterDomain }}
{{- else }}
{{- required "externalNats.url is required when nats.enabled=false (for example nats://nats.nats.svc.cluster.local:4222)" .Values.externalNats.url }}
{{- end }}
{{- end }}

{{- define "mneme.natsMonitoringEndpoint" -}}
{{- if .Values.externalNats.monitoringEndpoint }}
{{- .Values.externalNats.monitoringEndpoint }}
{{- else if .Values.nats.enabled }}
{{- /* KEDA queries <server>.<endpoint> for the consumer's leader, so this must be the headless service. */}}
{{- printf "%s-headless.%s.svc.%s:8222" (include "mneme.natsFullname" .) .Release.Namespace .Values.clusterDomain }}
{{- else }}
{{- fail "externalNats.monitoringEndpoint is required for KEDA's JetStream lag trigger when nats.enabled=false: the host:port of the NATS servers' monitoring port behind a headless service (for example nats-headless.nats.svc.cluster.local:8222)" }}
{{- end }}
{{- end }}

{{- define "mneme.cnpgName" -}}
{{- printf "%s-pg" (include "mneme.fullname" .) }}
{{- end }}

{{/* Where the database URL comes from: name and key of a Secret. */}}
{{- define "mneme.databaseSecretName" -}}
{{- if .Values.cnpg.enabled }}
{{- printf "%s-app" (include "mneme.cnpgName" .) }}
{{- else if .Values.externalDatabase.existingSecret }}
{{- .Values.externalDatabase.existingSecret }}
{{- else }}
{{- printf "%s-database" (include "mneme.fullname" .) }}
{{- end }}
{{- end }}

{{- define "mneme.databaseSecretKey" -}}
{{- if .Values.cnpg.enabled }}uri{{ else }}{{ .Values.externalDatabase.existingSecretKey }}{{ end }}
{{- end }}

{{/* The probe scheme follows the HTTP TLS setting: the same listener serves the API and the probes. */}}
{{- define "mneme.httpScheme" -}}
{{- if .Values.http.tls.existingSecret }}HTTPS{{ else }}HTTP{{ end }}
{{- end }}

{{/* Mount paths of the Secrets the contract variables point at. */}}
{{- define "mneme.natsCredsDir" -}}/var/run/secrets/mneme/nats-creds{{- end }}
{{- define "mneme.natsTLSDir" -}}/var/run/secrets/mneme/nats-tls{{- end }}
{{- define "mneme.httpTLSDir" -}}/var/run/secrets/mneme/http-tls{{- end }}

{{- define "mneme.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .Values.securityContext.runAsUser }}
runAsGroup: {{ .Values.securityContext.runAsGroup }}
fsGroup: {{ .Values.securityContext.runAsGroup }}
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{- define "mneme.containerSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .Values.securityContext.runAsUser }}
runAsGroup: {{ .Values.securityContext.runAsGroup }}
allowPrivilegeEscalation: false
privileged: false
readOnlyRootFilesystem: true
capabilities:
  drop: ["ALL"]
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{/*
Environment every Mneme container shares. MNEME_DEV_MODE is always false: the chart never runs local
development mode (no keys, workspaces created by their first write) on a cluster network.
*/}}
{{- define "mneme.commonEnv" -}}
- name: MNEME_DEV_MODE
  value: "false"
- name: MNEME_DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "mneme.databaseSecretName" . }}
      key: {{ include "mneme.databaseSecretKey" . }}
- name: MNEME_PARTITIONS
  value: {{ .Values.partitions | quote }}
- name: MNEME_LOG_LEVEL
  value: {{ .Values.logLevel | quote }}
- name: MNEME_CONNECT_TIMEOUT
  value: {{ .Values.connectTimeout | quote }}
- name: MNEME_SHUTDOWN_TIMEOUT
  value: {{ printf "%ds" (int .Values.shutdownTimeoutSeconds) | quote }}
{{- end }}
