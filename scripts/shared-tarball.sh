# Sourced by cloudstack.sh and cloudstack-db.sh: where CloudStack's source tarball is. Beside this
# clone (../shared), else beside the repository it was cloned from (a clone made in a temp folder);
# CKS_CLOUDSTACK_TARBALL overrides both.
shared_tarball() {
    local name=cloudstack/cloudstack-3d6cafe193.tar.gz origin
    if [ -n "${CKS_CLOUDSTACK_TARBALL:-}" ]; then
        echo "$CKS_CLOUDSTACK_TARBALL"
    elif [ ! -f "$ROOT/../shared/$name" ] && origin="$(git -C "$ROOT" remote get-url origin 2>/dev/null)" \
            && [ -f "$origin/../shared/$name" ]; then
        echo "$origin/../shared/$name"
    else
        echo "$ROOT/../shared/$name"
    fi
}
