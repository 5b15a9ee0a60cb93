{{/*
A stateless component: Deployment (+ HPA, PDB, Service). Called with
(dict "root" $ "component" NAME "values" .Values.x "port" N "args" LIST "env" LIST
      "content" BOOL "extraVolumes" LIST "extraMounts" LIST "probes" YAML "healthPort" N).
*/}}
{{- define "tracewise.deployment" -}}
{{- $root := .root }}
{{- $c := dict "root" .root "component" .component }}
{{- $name := include "tracewise.component" $c }}
{{- $v := .values }}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ $name }}
  labels:
{{ include "tracewise.labels" $c | indent 4 }}
spec:
  {{- if not $v.autoscaling.enabled }}
  replicas: {{ $v.replicas }}
  {{- end }}
  selector:
    matchLabels:
{{ include "tracewise.selectorLabels" $c | indent 6 }}
  strategy:
    type: RollingUpdate
    rollingUpdate: {maxUnavailable: 0, maxSurge: 1}
  template:
    metadata:
      labels:
{{ include "tracewise.labels" $c | indent 8 }}
      annotations:
        {{- if .content }}
{{ include "tracewise.contentChecksum" $root | indent 8 }}
        {{- end }}
        {{- with $v.podAnnotations }}
{{ toYaml . | indent 8 }}
        {{- end }}
    spec:
{{ include "tracewise.podCommon" (dict "root" $root "values" $v) | indent 6 }}
      containers:
        - name: {{ .component }}
          image: {{ include "tracewise.image" $root }}
          imagePullPolicy: {{ $root.Values.image.pullPolicy }}
          command: [/usr/bin/tracewise-{{ .component }}]
          args:
{{ toYaml .args | indent 12 }}
          {{- with .env }}
          env:
{{ toYaml . | indent 12 }}
          {{- end }}
          ports:
            - name: {{ .portName | default "grpc" }}
              containerPort: {{ .port }}
            {{- if .healthPort }}
            - name: health
              containerPort: {{ .healthPort }}
            {{- end }}
{{ .probes | indent 10 }}
          resources:
{{ toYaml $v.resources | indent 12 }}
          securityContext:
{{ toYaml $root.Values.containerSecurityContext | indent 12 }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
            {{- if .content }}
            - name: content
              mountPath: /etc/tracewise/content
              readOnly: true
            {{- end }}
            {{- with .extraMounts }}
{{ toYaml . | indent 12 }}
            {{- end }}
      volumes:
        - name: tmp
          emptyDir: {}
        {{- if .content }}
{{ include "tracewise.contentVolume" $root | indent 8 }}
        {{- end }}
        {{- with .extraVolumes }}
{{ toYaml . | indent 8 }}
        {{- end }}
---
apiVersion: v1
kind: Service
metadata:
  name: {{ $name }}
  labels:
{{ include "tracewise.labels" $c | indent 4 }}
spec:
  type: {{ .serviceType | default "ClusterIP" }}
  selector:
{{ include "tracewise.selectorLabels" $c | indent 4 }}
  ports:
    - name: {{ .portName | default "grpc" }}
      port: {{ .servicePort | default .port }}
      targetPort: {{ .portName | default "grpc" }}
{{- if $v.autoscaling.enabled }}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ $name }}
  labels:
{{ include "tracewise.labels" $c | indent 4 }}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{ $name }}
  minReplicas: {{ $v.autoscaling.minReplicas }}
  maxReplicas: {{ $v.autoscaling.maxReplicas }}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: {{ $v.autoscaling.targetCPUUtilizationPercentage }}
{{- end }}
{{- end -}}

{{/* A PodDisruptionBudget from (dict "root" $ "component" NAME "pdb" .Values.x.podDisruptionBudget). */}}
{{- define "tracewise.pdb" -}}
{{- if .pdb.enabled }}
{{- $c := dict "root" .root "component" .component }}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "tracewise.component" $c }}
  labels:
{{ include "tracewise.labels" $c | indent 4 }}
spec:
  {{- if hasKey .pdb "maxUnavailable" }}
  maxUnavailable: {{ .pdb.maxUnavailable }}
  {{- else }}
  minAvailable: {{ .pdb.minAvailable | default 1 }}
  {{- end }}
  selector:
    matchLabels:
{{ include "tracewise.selectorLabels" $c | indent 6 }}
{{- end }}
{{- end -}}
