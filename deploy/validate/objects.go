package validate

import (
	"fmt"
	"sort"

	cnpgv1 "github.com/cloudnative-pg/cloudnative-pg/api/v1"
	kedav1alpha1 "github.com/kedacore/keda/v2/apis/keda/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
)

// Release is a rendered chart's objects sorted by type, for assertions over the whole release.
type Release struct {
	Deployments     []*appsv1.Deployment
	Jobs            []*batchv1.Job
	Services        []*corev1.Service
	Secrets         []*corev1.Secret
	ServiceAccounts []*corev1.ServiceAccount
	PDBs            []*policyv1.PodDisruptionBudget
	HPAs            []*autoscalingv2.HorizontalPodAutoscaler
	NetworkPolicies []*networkingv1.NetworkPolicy
	ScaledObjects   []*kedav1alpha1.ScaledObject
	Clusters        []*cnpgv1.Cluster
	// Hooks names the objects rendered as Helm hooks, by kind/name.
	Hooks map[string]bool
}

// NewRelease sorts decoded objects by type; a type the chart is not expected to render is an error, so a
// new template cannot slip past the assertions unexamined.
func NewRelease(objs []Object) (*Release, error) {
	r := &Release{Hooks: map[string]bool{}}
	for _, o := range objs {
		var kind, name string
		switch t := o.Obj.(type) {
		case *appsv1.Deployment:
			r.Deployments = append(r.Deployments, t)
			kind, name = "Deployment", t.Name
		case *batchv1.Job:
			r.Jobs = append(r.Jobs, t)
			kind, name = "Job", t.Name
		case *corev1.Service:
			r.Services = append(r.Services, t)
			kind, name = "Service", t.Name
		case *corev1.Secret:
			r.Secrets = append(r.Secrets, t)
			kind, name = "Secret", t.Name
		case *corev1.ServiceAccount:
			r.ServiceAccounts = append(r.ServiceAccounts, t)
			kind, name = "ServiceAccount", t.Name
		case *policyv1.PodDisruptionBudget:
			r.PDBs = append(r.PDBs, t)
			kind, name = "PodDisruptionBudget", t.Name
		case *autoscalingv2.HorizontalPodAutoscaler:
			r.HPAs = append(r.HPAs, t)
			kind, name = "HorizontalPodAutoscaler", t.Name
		case *networkingv1.NetworkPolicy:
			r.NetworkPolicies = append(r.NetworkPolicies, t)
			kind, name = "NetworkPolicy", t.Name
		case *kedav1alpha1.ScaledObject:
			r.ScaledObjects = append(r.ScaledObjects, t)
			kind, name = "ScaledObject", t.Name
		case *cnpgv1.Cluster:
			r.Clusters = append(r.Clusters, t)
			kind, name = "Cluster", t.Name
		default:
			return nil, fmt.Errorf("%s: the chart rendered a %T, which no assertion covers", o.Manifest.Source, o.Obj)
		}
		if o.Manifest.Hook {
			r.Hooks[kind+"/"+name] = true
		}
	}
	return r, nil
}

// PodTemplate is the pod template of a Deployment or Job.
type PodTemplate struct {
	Owner    string // Deployment/<name> or Job/<name>
	Template *corev1.PodTemplateSpec
}

// PodTemplates lists every pod the release can start.
func (r *Release) PodTemplates() []PodTemplate {
	var out []PodTemplate
	for _, d := range r.Deployments {
		out = append(out, PodTemplate{Owner: "Deployment/" + d.Name, Template: &d.Spec.Template})
	}
	for _, j := range r.Jobs {
		out = append(out, PodTemplate{Owner: "Job/" + j.Name, Template: &j.Spec.Template})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Owner < out[j].Owner })
	return out
}

// Deployment returns the Deployment of one component (label app.kubernetes.io/component), or nil.
func (r *Release) Deployment(component string) *appsv1.Deployment {
	for _, d := range r.Deployments {
		if d.Labels["app.kubernetes.io/component"] == component {
			return d
		}
	}
	return nil
}

// Secret returns the rendered Secret of that name, or nil.
func (r *Release) Secret(name string) *corev1.Secret {
	for _, s := range r.Secrets {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Env returns the value of a literal environment variable of a container and whether it is set.
func Env(c corev1.Container, name string) (string, bool) {
	for _, e := range c.Env {
		if e.Name == name {
			return e.Value, true
		}
	}
	return "", false
}
