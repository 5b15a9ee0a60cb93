{{/* Names, labels and the pieces every component's pod spec shares. */}}

{{- define "tracewise.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The release's prefix: the release name, with the chart name added unless it has it. */}}
{{- define "tracewise.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* A component's object name: (dict "root" $ "component" "trace-query"). */}}
{{- define "tracewise.component" -}}
{{- printf "%s-%s" (include "tracewise.fullname" .root) .component -}}
{{- end -}}

{{- define "tracewise.labels" -}}
app.kubernetes.io/name: {{ include "tracewise.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/component: {{ .component }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" }}
{{- with .root.Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{- define "tracewise.selectorLabels" -}}
app.kubernetes.io/name: {{ include "tracewise.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "tracewise.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{/* Where clients reach trace-query: every pod of the headless Service, re-resolved. */}}
{{- define "tracewise.traceQueryTarget" -}}
{{- printf "dns:///%s-headless:%d" (include "tracewise.component" (dict "root" . "component" "trace-query")) (int .Values.ports.traceQuery) -}}
{{- end -}}

{{- define "tracewise.serviceAddress" -}}
{{- printf "%s:%d" (include "tracewise.component" (dict "root" .root "component" .component)) (int .port) -}}
{{- end -}}

{{/* The Secret holding the sessions URL, and its key. */}}
{{- define "tracewise.sessionsSecret" -}}
{{- if .Values.sessions.existingSecret -}}
{{- .Values.sessions.existingSecret -}}
{{- else -}}
{{- include "tracewise.component" (dict "root" . "component" "sessions") -}}
{{- end -}}
{{- end -}}

{{- define "tracewise.sessionsSecretKey" -}}
{{- if .Values.sessions.existingSecret -}}{{ .Values.sessions.existingSecretKey }}{{- else -}}url{{- end -}}
{{- end -}}

{{- define "tracewise.inChartPostgres" -}}
{{- if and .Values.sessions.postgresql.enabled (not .Values.sessions.postgresUrl) (not .Values.sessions.existingSecret) -}}true{{- end -}}
{{- end -}}

{{- define "tracewise.contentConfigMap" -}}
{{- default (include "tracewise.component" (dict "root" . "component" "content")) .Values.content.existingConfigMap -}}
{{- end -}}

{{/* gRPC health probes (the services serve grpc.health.v1). */}}
{{- define "tracewise.grpcProbes" -}}
readinessProbe:
  grpc: {port: {{ . }}}
  periodSeconds: 5
  failureThreshold: 3
livenessProbe:
  grpc: {port: {{ . }}}
  initialDelaySeconds: 10
  periodSeconds: 10
  failureThreshold: 6
{{- end -}}

{{/* The pod-level pieces every component shares: (dict "root" $ "values" .Values.x). */}}
{{- define "tracewise.podCommon" -}}
{{- with .root.Values.imagePullSecrets }}
imagePullSecrets:
{{ toYaml . }}
{{- end }}
securityContext:
{{ toYaml .root.Values.podSecurityContext | indent 2 }}
{{- with .values.nodeSelector }}
nodeSelector:
{{ toYaml . | indent 2 }}
{{- end }}
{{- with .values.tolerations }}
tolerations:
{{ toYaml . | indent 2 }}
{{- end }}
{{- with .values.affinity }}
affinity:
{{ toYaml . | indent 2 }}
{{- end }}
{{- end -}}

{{/* The content volume: the ConfigMap's flat keys laid out as skills/… and strategies/…. */}}
{{- define "tracewise.contentVolume" -}}
- name: content
  configMap:
    name: {{ include "tracewise.contentConfigMap" . }}
{{- if not .Values.content.existingConfigMap }}
    items:
{{- range $path, $_ := .Files.Glob "files/skills/**" }}
{{- if not (hasSuffix "README.md" $path) }}
      - key: {{ include "tracewise.contentKey" $path }}
        path: {{ trimPrefix "files/" $path }}
{{- end }}
{{- end }}
{{- range $path, $_ := .Files.Glob "files/strategies/**" }}
{{- if not (hasSuffix "README.md" $path) }}
      - key: {{ include "tracewise.contentKey" $path }}
        path: {{ trimPrefix "files/" $path }}
{{- end }}
{{- end }}
{{- end }}
{{- end -}}

{{/* A ConfigMap key for a content file: files/skills/cpu/x.skill.yaml → skills__cpu__x.skill.yaml. */}}
{{- define "tracewise.contentKey" -}}
{{- trimPrefix "files/" . | replace "/" "__" -}}
{{- end -}}

{{/* Rolls the pods that read content when it changes. */}}
{{- define "tracewise.contentChecksum" -}}
checksum/content: {{ include (print .Template.BasePath "/content-configmap.yaml") . | sha256sum }}
{{- end -}}

{{/* Security flags, volumes and mounts a component gets from .Values.auth and .Values.tls, as
JSON {"args": [...], "volumes": [...], "mounts": [...]} (read with fromJson). Called with
(dict "root" $ "grpc" BOOL): gRPC services also answer plaintext health on tls.healthPort. */}}
{{- define "tracewise.security" -}}
{{- $root := .root }}
{{- $args := list }}
{{- $volumes := list }}
{{- $mounts := list }}
{{- if $root.Values.auth.enabled }}
{{- $secret := default (include "tracewise.component" (dict "root" $root "component" "auth")) $root.Values.auth.existingSecret }}
{{- $key := ternary $root.Values.auth.existingSecretKey "auth.yaml" (not (empty $root.Values.auth.existingSecret)) }}
{{- $args = concat $args (list "--auth-config" "/etc/tracewise/auth/auth.yaml") }}
{{- $volumes = append $volumes (dict "name" "auth" "secret" (dict "secretName" $secret "items" (list (dict "key" $key "path" "auth.yaml")))) }}
{{- $mounts = append $mounts (dict "name" "auth" "mountPath" "/etc/tracewise/auth" "readOnly" true) }}
{{- end }}
{{- if $root.Values.tls.enabled }}
{{- $secret := required "tls.existingSecret (a Secret with tls.crt, tls.key and ca.crt) is required when tls.enabled" $root.Values.tls.existingSecret }}
{{- $args = concat $args (list "--tls-cert" "/etc/tracewise/tls/tls.crt" "--tls-key" "/etc/tracewise/tls/tls.key" "--tls-ca" "/etc/tracewise/tls/ca.crt") }}
{{- if $root.Values.tls.serverName }}
{{- $args = concat $args (list "--tls-server-name" $root.Values.tls.serverName) }}
{{- end }}
{{- if .grpc }}
{{- $args = concat $args (list "--health-listen" (printf "0.0.0.0:%d" (int $root.Values.tls.healthPort))) }}
{{- end }}
{{- $volumes = append $volumes (dict "name" "tls" "secret" (dict "secretName" $secret)) }}
{{- $mounts = append $mounts (dict "name" "tls" "mountPath" "/etc/tracewise/tls" "readOnly" true) }}
{{- end }}
{{- toJson (dict "args" $args "volumes" $volumes "mounts" $mounts) -}}
{{- end -}}

{{/* The probes of a gRPC service on port N (dict "root" $ "port" N): gRPC health on its port, or
with TLS on, on the plaintext health port. */}}
{{- define "tracewise.serviceProbes" -}}
{{- if .root.Values.tls.enabled -}}
{{ include "tracewise.grpcProbes" .root.Values.tls.healthPort }}
{{- else -}}
{{ include "tracewise.grpcProbes" .port }}
{{- end -}}
{{- end -}}
